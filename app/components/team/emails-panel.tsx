// The outbox: every email the site sent or is sending, with its attempts and last error; a failed
// one is sent again with `rpc("resend_email")` (its attempts start over), then the list reloads.
import { emailStatusLabels } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { statusColumn } from "./data-table.tsx";
import { PagedList } from "./paged-list.tsx";
import { ResendButton } from "./resend-button.tsx";

type EmailRow = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  created_at: string;
  attempts: number;
  sent_at: string | null;
  failed_at: string | null;
  last_error: string | null;
  status: keyof typeof emailStatusLabels;
};

const statusBadge = { queued: "default", sent: "accent", failed: "danger" } as const;

export function EmailsPanel() {
  return (
    <PagedList<EmailRow>
      title="Emails"
      relation="emails"
      select="id,kind,to_address,subject,created_at,attempts,sent_at,failed_at,last_error,status"
      noun={["email", "emails"]}
      statusLabels={emailStatusLabels}
      empty="No emails match this filter."
      columns={(reload) => [
        { header: "Subject", cell: (r) => r.subject, rowHeader: true, text: true },
        { header: "To", cell: (r) => r.to_address, text: true },
        statusColumn((r: EmailRow) => r.status, emailStatusLabels, statusBadge),
        { header: "Attempts", cell: (r) => r.attempts },
        { header: "Last error", cell: (r) => r.last_error ?? "–", text: true },
        {
          header: "Queued",
          cell: (r) => formatDateTime(r.created_at),
          className: "whitespace-nowrap",
        },
        {
          header: "Action",
          cell: (r) =>
            r.status === "failed" ? (
              <ResendButton
                rpc="resend_email"
                args={{ email_id: r.id }}
                label={`Resend "${r.subject}" to ${r.to_address}`}
                queued={{ title: "Email queued again", description: `To ${r.to_address}.` }}
                refused="That email is no longer failed: it was not sent again."
                onDone={reload}
              />
            ) : null,
        },
      ]}
    />
  );
}
