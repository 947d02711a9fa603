// The phone menu button. The drawer (vaul + Radix Dialog) loads on the first tap, not up front.
// Until the page's script runs it is a link to the footer's navigation, which lists every page.
// The Request Access dialog opened from the drawer lives here, outside the drawer, so it stays
// open while the drawer closes.
import { lazy, Suspense, useRef, useState } from "react";
import { useLazyDialog } from "../../forms/lazy-dialog-button.tsx";
import { requestAccessDialog } from "../../forms/request-access-button.tsx";
import { Button } from "../ui/button.tsx";
import { menuFallbacks } from "../../content/site.ts";

const loadDrawer = () => import("./mobile-drawer.tsx");
const MobileDrawer = lazy(loadDrawer);

export function MobileNav() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const menuLink = useRef<HTMLAnchorElement>(null);
  const access = useLazyDialog(requestAccessDialog);
  return (
    <>
      <Button asChild variant="ghost" size="icon">
        <a
          ref={menuLink}
          href={`#${menuFallbacks.siteMenuId}`}
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={open}
          onPointerEnter={loadDrawer}
          onFocus={loadDrawer}
          onClick={(event) => {
            event.preventDefault();
            setLoaded(true);
            setOpen(true);
          }}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path
              d="M4 7h16M4 12h16M4 17h16"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </a>
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <MobileDrawer
            open={open}
            onOpenChange={setOpen}
            trigger={menuLink}
            onRequestAccess={() => {
              setOpen(false);
              // The drawer's own button goes with the drawer: the focus comes back to the menu's.
              access.show(menuLink.current);
            }}
          />
        </Suspense>
      )}
      {access.element}
    </>
  );
}
