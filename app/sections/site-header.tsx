import { bookDemoUrl } from "../content/site.ts";
import { Island } from "../islands/island.tsx";
import { Button } from "../components/ui/button.tsx";
import { AccountAction } from "../components/layout/account-action.tsx";
import { Container } from "../components/layout/container.tsx";
import { DesktopNav } from "../components/layout/desktop-nav.tsx";
import { ExternalLink } from "../components/layout/external-link.tsx";
import { Logo } from "../components/layout/logo.tsx";
import { MobileNav } from "../components/layout/mobile-nav.tsx";

export function SiteHeader({ currentPath }: { currentPath: string }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border/80 bg-white/95">
      <Container className="flex h-16 items-center justify-between gap-4">
        <a href="/" className="rounded-lg" aria-label="Revwise home">
          <Logo />
        </a>
        <Island
          name="desktop-nav"
          component={DesktopNav}
          props={{ currentPath }}
          hydrate="interaction"
          className="hidden lg:flex"
        />
        <div className="hidden items-center gap-2 lg:flex">
          <Button asChild variant="outline">
            <ExternalLink href={bookDemoUrl}>Book Demo</ExternalLink>
          </Button>
          <Island name="account-action" component={AccountAction} props={{}} hydrate="session" />
        </div>
        <Island
          name="mobile-nav"
          component={MobileNav}
          props={{}}
          hydrate="interaction"
          className="lg:hidden"
        />
      </Container>
    </header>
  );
}
