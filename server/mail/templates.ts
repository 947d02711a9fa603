// The emails the server sends, as plain text and HTML. Every value a visitor typed is escaped.
import type { LeadSource } from "../../common/leads.ts";
import { escapeHtml } from "./html.ts";
import type { Email } from "./outbox.ts";

export type Field = [label: string, value: string | undefined | null];

const BRAND = "Revwise";
const UNSUBSCRIBE_LABEL = "Unsubscribe from the Revwise newsletter";

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f1f5f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#0f172a">
<div style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px">
<p style="margin:0 0 20px;font-weight:700;font-size:18px;color:#4338ca">${BRAND}</p>
${bodyHtml}
</div></body></html>`;
}

function fieldsText(fields: Field[]): string {
  return fields.map(([label, value]) => `${label}: ${value?.trim() ? value : "—"}`).join("\n");
}

function fieldsHtml(fields: Field[]): string {
  const rows = fields
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:6px 12px 6px 0;color:#475569;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th>` +
        `<td style="padding:6px 0;white-space:pre-wrap">${value?.trim() ? escapeHtml(value) : "—"}</td></tr>`,
    )
    .join("");
  return `<table role="presentation" style="border-collapse:collapse;width:100%;font-size:14px">${rows}</table>`;
}

/** A time as the team reads it, in its time zone: "Nov 29, 2026, 9:05 AM PST". */
export const teamTime = (at: Date, timeZone: string) =>
  at.toLocaleString("en-US", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  }) +
  ` ${new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? ""}`;

function sourceFields(source: LeadSource | undefined, receivedAt: Date, timeZone: string): Field[] {
  return [
    ["Received", teamTime(receivedAt, timeZone)],
    ["Page", source?.page],
    ["Referrer", source?.referrer],
    ["UTM source", source?.utm_source],
    ["UTM medium", source?.utm_medium],
    ["UTM campaign", source?.utm_campaign],
    ["UTM term", source?.utm_term],
    ["UTM content", source?.utm_content],
  ];
}

/** A new lead for the sales team: every field, readable, with where it came from. */
export function leadNotification(opts: {
  to: string;
  kind: string;
  title: string;
  intro: string;
  fields: Field[];
  replyTo: string;
  source: LeadSource | undefined;
  receivedAt: Date;
  /** The team's time zone: the time it was received is said in it. */
  timeZone: string;
  /** The lead in the team's workspace. */
  leadUrl: string;
}): Email {
  const source = sourceFields(opts.source, opts.receivedAt, opts.timeZone);
  return {
    kind: opts.kind,
    to: opts.to,
    replyTo: opts.replyTo,
    subject: opts.title,
    text: `${opts.intro}\n\n${fieldsText(opts.fields)}\n\n— Where it came from —\n${fieldsText(source)}\n\nOpen the lead: ${opts.leadUrl}\nReply to this email to answer ${opts.replyTo}.\n`,
    html: layout(
      opts.title,
      `<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(opts.title)}</h1>
<p style="margin:0 0 20px;color:#475569">${escapeHtml(opts.intro)}</p>
${fieldsHtml(opts.fields)}
<h2 style="font-size:14px;margin:24px 0 8px;color:#475569">Where it came from</h2>
${fieldsHtml(source)}
<p style="margin:24px 0 0"><a href="${escapeHtml(opts.leadUrl)}" style="color:#4338ca;font-weight:600">Open the lead</a></p>
<p style="margin:16px 0 0;color:#475569;font-size:13px">Reply to this email to answer ${escapeHtml(opts.replyTo)}.</p>`,
    ),
  };
}

/** A message to a visitor with one call to action (demo access, confirmation links…). */
export function actionEmail(opts: {
  kind: string;
  to: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  after?: string[];
  /**
   * A list's email (the newsletter's): its one-click unsubscribe link, in the List-Unsubscribe
   * header fields of RFC 8058 for the mail client's button and at the foot of the email.
   */
  unsubscribeUrl?: string;
}): Email {
  const after = opts.after ?? [];
  const unsubscribe = opts.unsubscribeUrl;
  return {
    kind: opts.kind,
    to: opts.to,
    subject: opts.subject,
    ...(unsubscribe && { headers: unsubscribeHeaders(unsubscribe) }),
    text: [
      opts.heading,
      "",
      ...opts.paragraphs.flatMap((p) => [p, ""]),
      `${opts.action.label}: ${opts.action.url}`,
      "",
      ...after.flatMap((p) => [p, ""]),
      `— The ${BRAND} team`,
      ...(unsubscribe ? ["", unsubscribeText(unsubscribe)] : []),
    ].join("\n"),
    html: layout(
      opts.subject,
      `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(opts.heading)}</h1>
${opts.paragraphs.map((p) => `<p style="margin:0 0 14px;line-height:1.6">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(opts.action.url)}" style="display:inline-block;background:#4338ca;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(opts.action.label)}</a></p>
<p style="margin:0 0 14px;font-size:13px;color:#475569;word-break:break-all">Or paste this link into your browser: ${escapeHtml(opts.action.url)}</p>
${after.map((p) => `<p style="margin:0 0 14px;line-height:1.6;color:#475569">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:24px 0 0">— The ${BRAND} team</p>${unsubscribe ? `\n${unsubscribeHtml(unsubscribe)}` : ""}`,
    ),
  };
}

/** A list's one-click unsubscribe (RFC 8058): the header fields a mail client's button uses. */
function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

const unsubscribeText = (url: string) => `${UNSUBSCRIBE_LABEL}: ${url}`;

const unsubscribeHtml = (url: string) =>
  `<p style="margin:24px 0 0;font-size:13px;color:#475569"><a href="${escapeHtml(url)}" style="color:#475569">${UNSUBSCRIBE_LABEL}</a></p>`;

/**
 * A newsletter issue: its body as HTML (made safe by the caller: newsletter/markdown.ts) and as
 * text (the Markdown itself reads as text), a link to the issue on the site, and the one-click
 * unsubscribe link in the header fields and at the foot.
 */
export function issueEmail(opts: {
  id?: string;
  kind: string;
  to: string;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  webUrl: string;
  unsubscribeUrl: string;
}): Email {
  const web = "Read this issue on our website";
  return {
    id: opts.id,
    kind: opts.kind,
    to: opts.to,
    subject: opts.subject,
    headers: unsubscribeHeaders(opts.unsubscribeUrl),
    text: [
      opts.bodyText.trim(),
      "",
      `${web}: ${opts.webUrl}`,
      "",
      `— The ${BRAND} team`,
      "",
      unsubscribeText(opts.unsubscribeUrl),
    ].join("\n"),
    html: layout(
      opts.subject,
      `<div style="line-height:1.6">${opts.bodyHtml}</div>
<p style="margin:24px 0 0;font-size:13px"><a href="${escapeHtml(opts.webUrl)}" style="color:#4338ca">${web}</a></p>
<p style="margin:24px 0 0">— The ${BRAND} team</p>
${unsubscribeHtml(opts.unsubscribeUrl)}`,
    ),
  };
}
