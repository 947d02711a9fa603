import { Container } from "../components/layout/container.tsx";
import { notFoundPage, pages } from "../content/pages.ts";

export const meta = () => [
  { title: notFoundPage.title },
  { name: "description", content: notFoundPage.description },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return (
    <Container className="py-24 text-center">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">404</p>
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-ink sm:text-4xl">
        Page not found
      </h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-muted-foreground">
        We could not find the page you asked for. It may have moved, or the link may be mistyped.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-4 font-semibold">
        <a href={pages.home.path} className="text-primary underline underline-offset-4">
          Go to the home page
        </a>
        <a href={pages.blog.path} className="text-primary underline underline-offset-4">
          Read the blog
        </a>
        <a href={pages.contact.path} className="text-primary underline underline-offset-4">
          Contact us
        </a>
      </div>
    </Container>
  );
}
