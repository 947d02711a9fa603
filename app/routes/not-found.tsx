import { notFoundPage, pages } from "../content/pages.ts";
import { LinkCards, MessagePanel, type LinkCardProps } from "../sections/pages/message-panel.tsx";

export const meta = () => [
  { title: notFoundPage.title },
  { name: "description", content: notFoundPage.description },
  { name: "robots", content: "noindex" },
];

const cards: LinkCardProps[] = [
  {
    href: pages.home.path,
    icon: "sparkles",
    label: "Go to the home page",
    description: "See how Revwise turns conversations into CRM data.",
  },
  {
    href: pages.blog.path,
    icon: "clipboard",
    label: "Read the blog",
    description: "Field notes on AI in sales and CRM hygiene.",
  },
  {
    href: pages.contact.path,
    icon: "message",
    label: "Contact us",
    description: "Ask our Seattle team; we reply within one business day.",
  },
];

export default function NotFound() {
  return (
    <>
      <MessagePanel
        icon="map-pin"
        eyebrow="404"
        title="Page not found"
        text="We could not find the page you asked for. It may have moved, or the link may be mistyped."
      />
      <LinkCards cards={cards} />
    </>
  );
}
