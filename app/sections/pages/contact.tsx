import type * as React from "react";
import { Icon, type IconName } from "../../components/ui/icon.tsx";
import type { Point } from "../../content/types.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";

type ContactDetails = {
  email: string;
  phone: string;
  location: string;
  hours: string;
  hoursNote: string;
};

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

function DetailRow({
  icon,
  label,
  children,
}: {
  icon: IconName;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="relative min-h-11 pl-15">
      <dt className="text-sm font-semibold text-slate-600">
        <span
          aria-hidden="true"
          className="absolute top-0 left-0 grid size-11 place-items-center rounded-xl bg-secondary text-primary"
        >
          <Icon name={icon} />
        </span>
        {label}
      </dt>
      <dd className="mt-0.5 text-base font-semibold break-words text-ink">{children}</dd>
    </div>
  );
}

/** An address that may wrap after its @ on a narrow screen (and anywhere, if it must). */
function BreakableEmail({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at < 0) return email;
  return (
    <span className="wrap-anywhere">
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </span>
  );
}

/** Email (mailto), phone (tel), location and working hours. */
export function ContactDetails({ contact }: { contact: ContactDetails }) {
  const link =
    "inline-flex min-h-6 items-center rounded-sm text-primary underline-offset-4 hover:underline";
  return (
    <section
      aria-labelledby="contact-details-title"
      className="rounded-2xl border border-border bg-slate-50 p-6 sm:p-8"
    >
      <h2 id="contact-details-title" className="text-2xl font-bold tracking-tight text-ink">
        Contact details
      </h2>
      <p className="mt-2 text-slate-700">Prefer email or the phone? Reach us directly.</p>
      <dl className="mt-6 grid gap-6">
        <DetailRow icon="mail" label="Email">
          <a href={`mailto:${contact.email}`} className={link}>
            <BreakableEmail email={contact.email} />
          </a>
        </DetailRow>
        <DetailRow icon="phone" label="Phone">
          <a href={telHref(contact.phone)} className={link}>
            {contact.phone}
          </a>
        </DetailRow>
        <DetailRow icon="map-pin" label="Location">
          {contact.location}
        </DetailRow>
        <DetailRow icon="clock" label="Working hours">
          {contact.hours}
          <span className="mt-0.5 block text-sm font-normal text-slate-600">
            {contact.hoursNote}
          </span>
        </DetailRow>
      </dl>
    </section>
  );
}

const REASON_ICONS: IconName[] = ["chart", "users", "sparkles"];

/** Why people write to us: sales, support, partnerships. */
export function ContactReasons({ reasons }: { reasons: Point[] }) {
  return (
    <section aria-labelledby="contact-reasons-title" className="mt-16">
      <h2
        id="contact-reasons-title"
        className="text-2xl font-bold tracking-tight text-ink sm:text-3xl"
      >
        How we can help
      </h2>
      <ul role="list" className="mt-6 grid gap-6 md:grid-cols-3">
        {reasons.map((reason, i) => (
          <IconItem
            key={reason.title}
            icon={REASON_ICONS[i % REASON_ICONS.length]!}
            tone="accent"
            title={reason.title}
            description={reason.description}
            className={ITEM_CARD}
          />
        ))}
      </ul>
    </section>
  );
}
