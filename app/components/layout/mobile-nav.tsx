// The phone menu button. The drawer (vaul + Radix Dialog) loads on the first tap, not up front.
import { lazy, Suspense, useState } from "react";
import { Button } from "../ui/button.tsx";

const loadDrawer = () => import("./mobile-drawer.tsx");
const MobileDrawer = lazy(loadDrawer);

export function MobileNav() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={loadDrawer}
        onFocus={loadDrawer}
        onClick={() => {
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
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <MobileDrawer open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
