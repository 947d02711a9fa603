// The newsletter's subscribers with where each stands (pending confirmation, subscribed,
// unsubscribed, and why), searched by address, filtered by status and exported as CSV; each can
// be unsubscribed, or deleted when its owner asks (the server keeps both in the audit log).
import { subscriberStatusLabels, unsubscribeReasonLabels } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { statusColumn } from "./data-table.tsx";
import { PagedList } from "./paged-list.tsx";
import { RpcButton } from "./resend-button.tsx";

type SubscriberRow = {
  id: string;
  email: string;
  status: keyof typeof subscriberStatusLabels;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  unsubscribe_reason: keyof typeof unsubscribeReasonLabels | null;
};

const statusBadge = { pending: "warning", subscribed: "accent", unsubscribed: "outline" } as const;

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "–");

export function SubscribersPanel() {
  return (
    <PagedList<SubscriberRow>
      title="Subscribers"
      relation="subscribers"
      select="id,email,status,created_at,confirmed_at,unsubscribed_at,unsubscribe_reason"
      search={{ label: "Search email", column: "email" }}
      noun={["subscriber", "subscribers"]}
      statusLabels={subscriberStatusLabels}
      exportAs="subscribers"
      empty="No subscribers match this filter."
      columns={(reload) => [
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
        {
          header: "Unsubscribed",
          cell: (r) =>
            r.unsubscribed_at
              ? `${when(r.unsubscribed_at)}${r.unsubscribe_reason ? ` (${unsubscribeReasonLabels[r.unsubscribe_reason]})` : ""}`
              : "–",
        },
        {
          header: "Actions",
          cell: (r) => (
            <div className="flex gap-2">
              {r.status !== "unsubscribed" && (
                <RpcButton
                  rpc="unsubscribe_subscriber"
                  args={{ subscriber_id: r.id }}
                  label={`Unsubscribe ${r.email}`}
                  queued={{ title: "Unsubscribed", description: `${r.email} gets no more issues.` }}
                  refused="That address was already unsubscribed or deleted."
                  onDone={reload}
                >
                  Unsubscribe
                </RpcButton>
              )}
              <RpcButton
                rpc="delete_subscriber"
                args={{ subscriber_id: r.id }}
                label={`Delete ${r.email}`}
                queued={{
                  title: "Deleted",
                  description: `${r.email} and its record of issues are gone.`,
                }}
                refused="That address was already deleted."
                onDone={reload}
              >
                Delete
              </RpcButton>
            </div>
          ),
        },
      ]}
    />
  );
}
