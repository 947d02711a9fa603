import { Outlet, useLocation } from "react-router";
import { SiteFooter } from "../sections/site-footer.tsx";
import { SiteHeader } from "../sections/site-header.tsx";
import { SkipLink } from "../components/layout/skip-link.tsx";
import { pagePath } from "../lib/page-path.ts";

/** The shared frame of every page: skip link, header, main content, footer. */
export default function SiteLayout() {
  return (
    <>
      <SkipLink />
      <SiteHeader currentPath={pagePath(useLocation().pathname)} />
      <main id="main" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
