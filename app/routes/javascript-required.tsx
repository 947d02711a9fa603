// Where a form's submission lands when the form's script was not running (JavaScript off, or
// Enter pressed before the page's code loaded): nothing was sent; say how to reach us anyway.
import { pages } from "../content/pages.ts";
import { contact } from "../content/site.ts";
import { pageMeta } from "../lib/meta.ts";
import { LinkCards, MessagePanel, type LinkCardProps } from "../sections/pages/message-panel.tsx";

export const meta = () => pageMeta(pages.javascriptRequired);

const cards: LinkCardProps[] = [
  {
    href: pages.home.path,
    icon: "sparkles",
    label: "Go to the home page",
    description: "See how Revwise turns conversations into CRM data.",
  },
  {
    href: pages.auth.path,
    icon: "clipboard",
    label: "Sign in",
    description: "Try signing in again once JavaScript is on.",
  },
  {
    href: pages.contact.path,
    icon: "message",
    label: "Contact details",
    description: `Call ${contact.phone}, ${contact.hoursNote}.`,
  },
];

export default function Page() {
  return (
    <>
      <MessagePanel
        icon="mail"
        eyebrow="Nothing was sent"
        title="This form needs JavaScript"
        text="Our forms check what you typed and protect you from spam with a little JavaScript, which did not run in your browser. Turn JavaScript on and try again, or write to us: we reply within one business day."
      >
        <p className="mt-6 text-lg">
          <a
            href={`mailto:${contact.email}`}
            className="font-semibold text-primary underline underline-offset-4"
          >
            {contact.email}
          </a>
        </p>
      </MessagePanel>
      <LinkCards cards={cards} />
    </>
  );
}
