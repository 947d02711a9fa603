// The phone navigation: a bottom drawer (vaul) with the header's items. Loaded on first use.
import type * as React from "react";
import { useRef } from "react";
import { Drawer } from "vaul";
import {
  bookDemoUrl,
  mainLinks,
  productLinks,
  resourceLinks,
  type NavLink,
} from "../../content/site.ts";
import { Button } from "../ui/button.tsx";
import { AccountAction } from "./account-action.tsx";
import { ExternalLink } from "./external-link.tsx";

/** The drawer closes when dragged past a quarter of its height; vaul animates in 0.5 s. */
const DRAWER_CLOSE_THRESHOLD = 0.25;

function Group({
  title,
  links,
  onNavigate,
}: {
  title: string;
  links: NavLink[];
  onNavigate: () => void;
}) {
  return (
    <div>
      <p className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        {title}
      </p>
      <ul className="mt-1">
        {links.map((link) => (
          <li key={link.href}>
            <a
              href={link.href}
              onClick={onNavigate}
              className="block rounded-lg px-3 py-2.5 text-base font-medium hover:bg-muted"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function MobileDrawer({
  open,
  onOpenChange,
  trigger,
  onRequestAccess,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "Open menu", which gets the focus back when the drawer closes (it is not vaul's trigger). */
  trigger: React.RefObject<HTMLElement | null>;
  /** Opens the Request Access dialog outside the drawer, which closes as it opens. */
  onRequestAccess: () => void;
}) {
  const close = () => onOpenChange(false);
  const title = useRef<HTMLHeadingElement>(null);
  return (
    <Drawer.Root open={open} onOpenChange={onOpenChange} closeThreshold={DRAWER_CLOSE_THRESHOLD}>
      <Drawer.Portal>
        <Drawer.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Drawer.Content
          data-slot="drawer-content"
          aria-describedby={undefined}
          // A dialog: opening moves the focus into it, to its title (vaul would leave it in the
          // page), Tab stays in it, and closing gives it back to "Open menu", unless it has moved
          // on (to the Request Access dialog the drawer hands over to).
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            title.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (document.activeElement === document.body) trigger.current?.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85vh] flex-col rounded-t-2xl bg-white pb-[env(safe-area-inset-bottom)] outline-none"
        >
          <div
            aria-hidden="true"
            className="mx-auto mt-3 h-1.5 w-12 shrink-0 rounded-full bg-slate-300"
          />
          <Drawer.Title
            ref={title}
            tabIndex={-1}
            className="px-6 pt-4 text-lg font-semibold outline-none"
          >
            Menu
          </Drawer.Title>
          <nav aria-label="Mobile" className="space-y-5 overflow-y-auto px-3 py-4">
            <Group title="Products" links={productLinks} onNavigate={close} />
            <Group title="Resources" links={resourceLinks} onNavigate={close} />
            <Group title="Company" links={mainLinks} onNavigate={close} />
            <div
              className="grid gap-2 px-3 pt-2"
              onClickCapture={(e) => (e.target as HTMLElement).closest("a,button") && close()}
            >
              <Button asChild variant="outline" size="lg">
                <ExternalLink href={bookDemoUrl}>Book Demo</ExternalLink>
              </Button>
              <AccountAction size="lg" onRequestAccess={onRequestAccess} />
            </div>
          </nav>
        </Drawer.Content>
      </Drawer.Portal>
    </Drawer.Root>
  );
}
