// The product overview's cards for the three Sales Knowledge Chat products, each linking to its page.
import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { AssistantProduct } from "../../content/types.ts";

export function AssistantLinks({
  eyebrow,
  title,
  lead,
  products,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  products: AssistantProduct[];
}) {
  return (
    <section
      aria-labelledby="assistants-title"
      className="border-t border-border bg-white py-16 sm:py-24"
    >
      <Container>
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
          <h2
            id="assistants-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl"
          >
            {title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-700">{lead}</p>
        </div>
        <ul role="list" className="mt-10 grid gap-6 md:grid-cols-3">
          {products.map((product) => (
            <li
              key={product.page.path}
              className="relative flex flex-col rounded-2xl border border-border bg-slate-50 p-6 shadow-xs transition hover:border-indigo-200 hover:shadow-md lg:p-8"
            >
              <h3 className="text-lg font-bold text-ink">
                <a
                  href={product.page.path}
                  className="rounded-sm after:absolute after:inset-0 after:rounded-2xl hover:text-primary"
                >
                  {product.name}
                </a>
              </h3>
              <p className="mt-1 font-semibold text-slate-800">{product.title}</p>
              <p className="mt-3 flex-1 leading-7 text-slate-700">{product.lead}</p>
              <span
                aria-hidden="true"
                className="mt-5 inline-flex items-center gap-1.5 font-semibold text-primary"
              >
                Explore {product.name}
                <Icon name="arrow-right" className="size-4" />
              </span>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
