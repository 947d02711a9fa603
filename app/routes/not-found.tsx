import { Container } from "../components/layout/container.tsx";
import { notFoundPage, pages } from "../content/pages.ts";
import { LinkCard, MessagePanel } from "../sections/pages/message-panel.tsx";

export const meta = () => [
  { title: notFoundPage.title },
  { name: "description", content: notFoundPage.description },
  { name: "robots", content: "noindex" },
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
      <Container className="pb-20 sm:pb-28">
        <ul role="list" className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-3">
          <LinkCard
            href={pages.home.path}
            icon="sparkles"
            label="Go to the home page"
            description="See how Revwise turns conversations into CRM data."
          />
          <LinkCard
            href={pages.blog.path}
            icon="clipboard"
            label="Read the blog"
            description="Field notes on AI in sales and CRM hygiene."
          />
          <LinkCard
            href={pages.contact.path}
            icon="message"
            label="Contact us"
            description="Ask our Seattle team; we reply within one business day."
          />
        </ul>
      </Container>
    </>
  );
}
