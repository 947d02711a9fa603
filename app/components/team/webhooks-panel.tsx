// The CRM webhooks: the endpoints (the operator's LEAD_WEBHOOK_URL one is read-only), and for
// admins adding one (its signing secret shown this once, with a copy button), turning one on or
// off and deleting it after a confirmation; the delivery log, with Resend for admins. Members see
// everything read-only (the server refuses their writes anyway).
import type * as React from "react";
import { useState } from "react";
import { deliveryStatusLabels } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { readableMessage } from "../../lib/errors.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { rowsOf } from "../../lib/team-data.ts";
import { errorToast, toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Field } from "../ui/field.tsx";
import { Input } from "../ui/input.tsx";
import { DataTable, LoadState, statusColumn, useLoad, type Column } from "./data-table.tsx";
import { PagedList } from "./paged-list.tsx";
import { ConfirmAction } from "./confirm-action.tsx";
import { ResendButton } from "./resend-button.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";

type Endpoint = {
  id: string;
  url: string;
  description: string | null;
  enabled: boolean;
  created_at: string;
  from_environment: boolean;
};

export type DeliveryRow = {
  id: string;
  endpoint_url: string;
  created_at: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  status: keyof typeof deliveryStatusLabels;
};

const deliveryBadge = { pending: "default", delivered: "accent", failed: "danger" } as const;

/** The delivery log's columns; admins get a Resend button on each row (delivered, failed or waiting). */
function deliveryColumns(admin: boolean, reload: () => void): Column<DeliveryRow>[] {
  return [
    {
      header: "Endpoint",
      cell: (r) => r.endpoint_url,
      text: true,
      rowHeader: true,
    },
    statusColumn((r: DeliveryRow) => r.status, deliveryStatusLabels, deliveryBadge),
    { header: "Attempts", cell: (r) => r.attempts },
    {
      header: "Last answer",
      cell: (r) => [r.last_status, r.last_error].filter((x) => x !== null).join(" · ") || "–",
      text: true,
    },
    {
      header: "Created",
      cell: (r) => formatDateTime(r.created_at),
      className: "whitespace-nowrap",
    },
    ...(admin
      ? [
          {
            header: "Action",
            cell: (r: DeliveryRow) => (
              <ResendButton
                rpc="resend_webhook"
                args={{ delivery_id: r.id }}
                label={`Resend delivery to ${r.endpoint_url}`}
                queued={{ title: "Delivery queued again", description: r.endpoint_url }}
                refused="That delivery is being sent right now: try again in a moment."
                onDone={reload}
              />
            ),
          },
        ]
      : []),
  ];
}

/** A lead's deliveries (read-only), in its detail. */
export function DeliveryTable({ rows, empty }: { rows: DeliveryRow[]; empty: string }) {
  return (
    <DataTable
      caption="Webhook deliveries, newest first"
      rows={rows}
      rowKey={(r) => r.id}
      empty={empty}
      columns={deliveryColumns(false, () => undefined)}
    />
  );
}

async function readEndpoints(): Promise<Endpoint[]> {
  const supabase = await getSupabase();
  return rowsOf<Endpoint>(
    await supabase
      .from("webhook_endpoints")
      .select("id,url,description,enabled,created_at,from_environment")
      .order("created_at", { ascending: false })
      .limit(200),
  ).rows;
}

export function WebhooksPanel({ admin }: { admin: boolean }) {
  const { state, reload } = useLoad(readEndpoints, "endpoints");
  return (
    <div className="grid gap-8">
      <section aria-labelledby="endpoints-heading" className="grid gap-4">
        {/* Focusable by script: a deleted endpoint's row goes, and the focus comes here. */}
        <h2
          id="endpoints-heading"
          tabIndex={-1}
          className="text-xl font-semibold text-ink outline-none"
        >
          Webhook endpoints
        </h2>
        <p className="text-sm leading-6 text-slate-700">
          Every new lead is sent to each enabled endpoint as a signed <code>lead.created</code>{" "}
          event. {admin ? "" : "Only admins add, change or delete endpoints and resend deliveries."}
        </p>
        {admin && <AddEndpoint onAdded={reload} />}
        <LoadState state={state} what="webhook endpoints">
          {(rows) => (
            <DataTable
              // Not the section's name: two landmarks of one name could not be told apart.
              caption="Webhook endpoints, newest first"
              rows={rows}
              rowKey={(r) => r.id}
              empty="No webhook endpoint yet."
              columns={[
                {
                  header: "URL",
                  cell: (r) => r.url,
                  text: true,
                  rowHeader: true,
                },
                { header: "Description", cell: (r) => r.description || "–", text: true },
                {
                  header: "State",
                  cell: (r) => (
                    <span className="flex flex-wrap gap-1">
                      <Badge variant={r.enabled ? "accent" : "outline"}>
                        {r.enabled ? "Enabled" : "Disabled"}
                      </Badge>
                      {r.from_environment && (
                        <Badge variant="outline">From the server's settings</Badge>
                      )}
                    </span>
                  ),
                },
                { header: "Added", cell: (r) => formatDateTime(r.created_at) },
                ...(admin
                  ? [
                      {
                        header: "Actions",
                        cell: (r: Endpoint) =>
                          r.from_environment ? (
                            "–"
                          ) : (
                            <EndpointActions endpoint={r} onChanged={reload} />
                          ),
                      },
                    ]
                  : []),
              ]}
            />
          )}
        </LoadState>
      </section>
      <PagedList<DeliveryRow>
        title="Delivery log"
        relation="webhook_deliveries"
        select="id,endpoint_url,created_at,attempts,last_status,last_error,status"
        noun={["delivery", "deliveries"]}
        statusLabels={deliveryStatusLabels}
        empty="No deliveries match this filter."
        columns={(reloadLog) => deliveryColumns(admin, reloadLog)}
      />
    </div>
  );
}

function EndpointActions({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  const [busy, run] = useBusyAction();
  const change = async (kind: "toggle" | "delete") => {
    const supabase = await getSupabase();
    const table = supabase.from("webhook_endpoints");
    const { error } =
      kind === "toggle"
        ? await table.update({ enabled: !endpoint.enabled }).eq("id", endpoint.id)
        : await table.delete().eq("id", endpoint.id);
    if (error) throw new Error(error.message);
    toast({
      title:
        kind === "delete"
          ? "Endpoint deleted"
          : endpoint.enabled
            ? "Endpoint disabled"
            : "Endpoint enabled",
      description: endpoint.url,
    });
    // The row (and the button that had the focus) goes with the endpoint.
    if (kind === "delete") document.getElementById("endpoints-heading")?.focus();
    onChanged();
  };
  return (
    <span className="flex flex-wrap gap-2">
      <Button
        type="button"
        size="sm"
        variant="outline"
        aria-disabled={busy}
        aria-label={`${endpoint.enabled ? "Disable" : "Enable"} ${endpoint.url}`}
        onClick={() => void run(() => change("toggle"))}
      >
        {endpoint.enabled ? "Disable" : "Enable"}
      </Button>
      <ConfirmAction
        label="Delete"
        name={`Delete ${endpoint.url}`}
        yes="Yes, delete"
        onConfirm={async () => {
          await change("delete");
          return true;
        }}
      />
    </span>
  );
}

function AddEndpoint({ onAdded }: { onAdded: () => void }) {
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, run] = useBusyAction();
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const add = async () => {
    setProblem(null);
    const supabase = await getSupabase();
    const { data, error } = await supabase
      .from("webhook_endpoints")
      .insert({ url: url.trim(), description: description.trim() || undefined })
      .select();
    // A URL the server refuses says which rule it breaks (its details), not the constraint's name.
    if (error)
      return setProblem(
        error.code === "23514" && error.details
          ? `${error.details.replace(/^url /, "The URL ")}.`
          : readableMessage(error.message),
      );
    const row = (data as (Endpoint & { secret: string })[])[0]!;
    setSecret({ url: row.url, secret: row.secret });
    setUrl("");
    setDescription("");
    onAdded();
  };
  return (
    <Card className="grid gap-4 p-5">
      <ScriptForm
        label="Add an endpoint"
        noValidate={false}
        onSubmit={(e) => {
          e.preventDefault();
          void run(add);
        }}
        className="grid gap-4"
      >
        <h3 className="font-semibold text-ink">Add an endpoint</h3>
        <div className="grid items-start gap-4 md:grid-cols-2">
          <Field
            label="URL"
            description="https://… on a public host (http://localhost only on a test server)."
            error={problem ?? undefined}
          >
            {(p) => (
              <Input
                {...p}
                type="url"
                required
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setProblem(null);
                }}
                placeholder="https://crm.example.com/hooks/revwise"
              />
            )}
          </Field>
          <Field label="Description" optional>
            {(p) => (
              <Input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />
            )}
          </Field>
        </div>
        <Button type="submit" className="justify-self-start" aria-disabled={busy || !url.trim()}>
          {busy ? "Adding..." : "Add endpoint"}
        </Button>
      </ScriptForm>
      {secret && <SecretOnce {...secret} onDismiss={() => setSecret(null)} />}
    </Card>
  );
}

/** The new endpoint's signing secret: shown this once (the server never shows it again). */
function SecretOnce({
  url,
  secret,
  onDismiss,
}: {
  url: string;
  secret: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      errorToast("Couldn't copy: select the secret and copy it yourself.");
    }
  };
  return (
    <div
      role="status"
      className="grid gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm"
    >
      <p className="font-semibold text-ink">
        Endpoint added: <span className="break-all">{url}</span>
      </p>
      <p className="text-slate-800">
        Its signing secret is shown only now. Copy it into the receiving system to verify each
        event's signature.
      </p>
      <code
        data-testid="webhook-secret"
        className="block rounded-md bg-white px-3 py-2 font-mono break-all text-ink"
      >
        {secret}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy secret"}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDismiss}>
          I've saved it
        </Button>
      </div>
    </div>
  );
}
