import { brand, footer, menuFallbacks, type NavLink } from "../content/site.ts";
import { NewsletterForm } from "../forms/newsletter-form.tsx";
import { Island } from "../islands/island.tsx";
import { Container } from "../components/layout/container.tsx";
import { Logo } from "../components/layout/logo.tsx";

function Column({ title, links }: { title: string; links: NavLink[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} className="text-sm text-slate-300 hover:text-white">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SiteFooter() {
  return (
    <footer className="bg-ink text-slate-300">
      <Container className="grid grid-cols-1 gap-10 py-14 lg:grid-cols-[1.2fr_2fr]">
        <div className="max-w-sm">
          <a href="/" className="inline-block rounded-lg" aria-label="Revwise home">
            <Logo inverted />
          </a>
          <p className="mt-4 text-sm leading-6">{footer.blurb}</p>
          <div className="mt-8">
            <h2 className="text-sm font-semibold text-white">{footer.newsletter.title}</h2>
            <p className="mt-2 text-sm">
              {footer.newsletter.text}{" "}
              <a
                href={footer.newsletter.archive.href}
                className="text-white underline underline-offset-2 hover:no-underline"
              >
                {footer.newsletter.archive.label}
              </a>
            </p>
            <Island
              name="newsletter-form"
              component={NewsletterForm}
              props={{ className: "mt-4" }}
              hydrate="interaction"
            />
          </div>
        </div>
        <nav
          id={menuFallbacks.siteMenuId}
          aria-label="Footer"
          className="grid scroll-mt-20 grid-cols-2 gap-8 sm:grid-cols-4"
        >
          <Column title="Products" links={footer.products} />
          <Column title="Resources" links={footer.resources} />
          <Column title="Company" links={footer.company} />
          <Column title="Legal" links={footer.legal} />
        </nav>
      </Container>
      <div className="border-t border-white/10">
        <Container className="flex flex-col gap-2 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {brand.copyrightYear} {brand.name}, Inc. All rights reserved.
          </p>
          <p>Made in Seattle for people who sell.</p>
        </Container>
      </div>
    </footer>
  );
}
