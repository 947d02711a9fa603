// The newsletter's subscribers with where each stands (pending confirmation, subscribed,
// unsubscribed), filtered by status and exported as CSV.
import { subscriberStatusLabels } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { statusColumn } from "./data-table.tsx";
import { PagedList } from "./paged-list.tsx";

type SubscriberRow = {
  id: string;
  email: string;
  status: keyof typeof subscriberStatusLabels;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
};

const statusBadge = { pending: "warning", subscribed: "accent", unsubscribed: "outline" } as const;

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "–");

export function SubscribersPanel() {
  return (
    <PagedList<SubscriberRow>
      title="Subscribers"
      relation="subscribers"
      select="id,email,status,created_at,confirmed_at,unsubscribed_at"
      noun={["subscriber", "subscribers"]}
      statusLabels={subscriberStatusLabels}
      exportAs="subscribers"
      empty="No subscribers match this filter."
      columns={() => [
        {
          header: "Email",
          cell: (r) => r.email,
          text: true,
          rowHeader: true,
        },
        statusColumn(
          (r: SubscriberRow) => r.status,
          subscriberStatusLabels,
          statusBadge,
          "whitespace-nowrap",
        ),
        { header: "Signed up", cell: (r) => when(r.created_at) },
        { header: "Confirmed", cell: (r) => when(r.confirmed_at) },
        { header: "Unsubscribed", cell: (r) => when(r.unsubscribed_at) },
      ]}
    />
  );
}
