// Navigation menu in the disclosure pattern: each trigger shows and hides the panel of links that
// follows it in the page, so Tab goes from the trigger into its links with no focus proxy (Radix's
// navigation menu put a focusable span inside aria-hidden there, which axe rejects). A pointer
// opens a menu after MENU_DELAY_MS, and at once within MENU_SKIP_DELAY_MS of another being open;
// leaving a menu closes it after MENU_CLOSE_DELAY_MS. A click on the trigger toggles its menu;
// Escape, a press outside or the focus leaving the menu close it, Escape giving the focus back to
// the trigger. ← and → move between the top-level items, ↓ opens a menu into its first link, ↑ and
// ↓ move between its links.
import { cva } from "class-variance-authority";
import * as React from "react";
import { flushSync } from "react-dom";
import { cn } from "../../lib/cn.ts";
import { opensElsewhere } from "../../lib/link-clicks.ts";

const MENU_DELAY_MS = 200;
const MENU_SKIP_DELAY_MS = 300;
const MENU_CLOSE_DELAY_MS = 150;

type MenuContextValue = {
  open: string | null;
  /** Opens `value` now; `flush` renders it before returning (to focus into it). */
  show: (value: string, flush?: boolean) => void;
  /** Opens `value` after the hover delay, or at once right after another menu was open. */
  showSoon: (value: string) => void;
  hide: () => void;
  hideSoon: () => void;
  /** Drops an open or a close that is waiting for its delay. */
  cancelPending: () => void;
};

const MenuContext = React.createContext<MenuContextValue | null>(null);
const ItemContext = React.createContext<{ value: string; contentId: string } | null>(null);

function useMenu() {
  const menu = React.useContext(MenuContext);
  if (!menu) throw new Error("navigation menu parts must be within <NavigationMenu />");
  return menu;
}

function useItem() {
  const item = React.useContext(ItemContext);
  if (!item) throw new Error("a menu's trigger and content must be within <NavigationMenuItem />");
  return item;
}

/** The top-level controls (triggers and plain links) or one panel's links, in order. */
const TOP_LEVEL = ":scope > li > a";
const PANEL_LINKS = 'a[data-slot="navigation-menu-link"]';

function moveFocus(items: HTMLElement[], from: Element | null, step: number) {
  if (!items.length) return;
  const at = items.findIndex((item) => item === from);
  items[(at + step + items.length) % items.length]?.focus();
}

export function NavigationMenu({
  className,
  children,
  ...props
}: Omit<React.ComponentProps<"nav">, "ref">) {
  const [open, setOpen] = React.useState<string | null>(null);
  const nav = React.useRef<HTMLElement>(null);
  /** The open menu as last set, for the handlers between two renders. */
  const openRef = React.useRef<string | null>(null);
  const timer = React.useRef<ReturnType<typeof setTimeout>>(undefined);
  const closedAt = React.useRef(-Infinity);

  const menu = React.useMemo<MenuContextValue>(() => {
    const change = (value: string | null) => {
      clearTimeout(timer.current);
      if (value === null && openRef.current !== null) closedAt.current = Date.now();
      openRef.current = value;
      setOpen(value);
    };
    return {
      open,
      show: (value, flush) => (flush ? flushSync(() => change(value)) : change(value)),
      showSoon: (value) => {
        clearTimeout(timer.current);
        const recent = Date.now() - closedAt.current < MENU_SKIP_DELAY_MS;
        if (openRef.current !== null || recent) return change(value);
        timer.current = setTimeout(() => change(value), MENU_DELAY_MS);
      },
      hide: () => change(null),
      hideSoon: () => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => change(null), MENU_CLOSE_DELAY_MS);
      },
      cancelPending: () => clearTimeout(timer.current),
    };
  }, [open]);

  React.useEffect(() => {
    // The pointer that woke the menu may rest on a trigger; a menu opens on a pointer move (after
    // its delay), which would otherwise wait until the mouse moves again.
    nav.current
      ?.querySelector('[data-slot="navigation-menu-trigger"]:hover')
      ?.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse" }));
    return () => clearTimeout(timer.current);
  }, []);

  // While a menu is open, Escape anywhere closes it (the focus, if it was in the menu, goes back
  // to its trigger) and so does a press outside the navigation.
  React.useEffect(() => {
    if (open === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const root = nav.current;
      const trigger = root?.querySelector<HTMLElement>(
        `[data-slot="navigation-menu-trigger"][data-state="open"]`,
      );
      if (root?.contains(document.activeElement)) trigger?.focus();
      menu.hide();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) menu.hide();
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open, menu]);

  return (
    <MenuContext.Provider value={menu}>
      <nav
        ref={nav}
        data-slot="navigation-menu"
        className={cn("relative flex max-w-max flex-1 items-center justify-center", className)}
        {...props}
      >
        {children}
      </nav>
    </MenuContext.Provider>
  );
}

export function NavigationMenuList({ className, onKeyDown, ...props }: React.ComponentProps<"ul">) {
  return (
    <ul
      data-slot="navigation-menu-list"
      className={cn("flex list-none items-center gap-1", className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
        if (!step) return;
        const items = [...event.currentTarget.querySelectorAll<HTMLElement>(TOP_LEVEL)];
        if (!items.includes(event.target as HTMLElement)) return;
        event.preventDefault();
        moveFocus(items, event.target as Element, step);
      }}
      {...props}
    />
  );
}

/** One top-level entry; with a trigger and content, `value` names its menu. */
export function NavigationMenuItem({
  className,
  value,
  onPointerEnter,
  onPointerLeave,
  onBlur,
  ...props
}: React.ComponentProps<"li"> & { value?: string }) {
  const menu = useMenu();
  const contentId = React.useId();
  const item = React.useMemo(() => (value ? { value, contentId } : null), [value, contentId]);
  const isOpen = value !== undefined && menu.open === value;
  return (
    <ItemContext.Provider value={item}>
      <li
        data-slot="navigation-menu-item"
        className={cn("relative", className)}
        onPointerEnter={(event) => {
          onPointerEnter?.(event);
          if (isOpen && event.pointerType === "mouse") menu.cancelPending();
        }}
        onPointerLeave={(event) => {
          onPointerLeave?.(event);
          if (isOpen && event.pointerType === "mouse") menu.hideSoon();
        }}
        onBlur={(event) => {
          onBlur?.(event);
          // The focus moved out of this menu (to the next item, or elsewhere on the page): its
          // panel goes. Focus that goes nowhere (a press on the panel's padding, or on a link a
          // browser does not focus on click) keeps it: a press outside closes it (NavigationMenu).
          const to = event.relatedTarget;
          if (isOpen && to !== null && !event.currentTarget.contains(to)) menu.hide();
        }}
        {...props}
      />
    </ItemContext.Provider>
  );
}

export const navigationMenuTriggerStyle = cva(
  "group inline-flex h-10 items-center justify-center rounded-lg px-3 text-sm font-medium text-slate-700 transition-colors hover:bg-muted hover:text-foreground data-[state=open]:bg-muted data-[state=open]:text-foreground",
);

/**
 * A menu's trigger: a link to a page listing the menu's items, which is what it does until the
 * page's script runs; once it runs, a plain click toggles the menu instead.
 */
export function NavigationMenuTrigger({
  className,
  children,
  href,
  onClick,
  onKeyDown,
  onPointerMove,
  onPointerLeave,
  ...props
}: React.ComponentProps<"a"> & { href: string }) {
  const menu = useMenu();
  const { value, contentId } = useItem();
  const isOpen = menu.open === value;
  // A click that closed the menu keeps the resting pointer from opening it again.
  const clickClosed = React.useRef(false);
  return (
    <a
      href={href}
      data-slot="navigation-menu-trigger"
      data-state={isOpen ? "open" : "closed"}
      aria-expanded={isOpen}
      aria-controls={isOpen ? contentId : undefined}
      className={cn(navigationMenuTriggerStyle(), "gap-1", className)}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || opensElsewhere(event)) return;
        event.preventDefault();
        clickClosed.current = isOpen;
        if (isOpen) menu.hide();
        else menu.show(value);
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.key !== "ArrowDown") return;
        event.preventDefault();
        menu.show(value, true);
        document.getElementById(contentId)?.querySelector<HTMLElement>(PANEL_LINKS)?.focus();
      }}
      onPointerMove={(event) => {
        onPointerMove?.(event);
        if (event.pointerType === "mouse" && !isOpen && !clickClosed.current) menu.showSoon(value);
      }}
      onPointerLeave={(event) => {
        onPointerLeave?.(event);
        clickClosed.current = false;
        if (!isOpen && event.pointerType === "mouse") menu.cancelPending();
      }}
      {...props}
    >
      {children}
      <svg
        viewBox="0 0 16 16"
        width="12"
        height="12"
        aria-hidden="true"
        className="transition-transform duration-200 group-data-[state=open]:rotate-180"
      >
        <path
          d="M4 6l4 4 4-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </a>
  );
}

/** The panel under a trigger: in the page (and the tab order) only while its menu is open. */
export function NavigationMenuContent({
  className,
  children,
  onKeyDown,
  ...props
}: React.ComponentProps<"div">) {
  const menu = useMenu();
  const { value, contentId } = useItem();
  if (menu.open !== value) return null;
  return (
    <div className="absolute top-full left-0 z-50 pt-2">
      <div
        id={contentId}
        data-slot="navigation-menu-content"
        data-state="open"
        className={cn("rounded-xl border border-border bg-white p-2 shadow-lg", className)}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          const step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
          if (!step) return;
          event.preventDefault();
          const links = [...event.currentTarget.querySelectorAll<HTMLElement>(PANEL_LINKS)];
          moveFocus(links, document.activeElement, step);
        }}
        {...props}
      >
        {children}
      </div>
    </div>
  );
}

export function NavigationMenuLink({
  className,
  active,
  ...props
}: React.ComponentProps<"a"> & { active?: boolean }) {
  return (
    <a
      data-slot="navigation-menu-link"
      data-active={active ? "" : undefined}
      aria-current={active ? "page" : undefined}
      className={cn(
        "block rounded-lg p-3 text-sm transition-colors hover:bg-muted focus:bg-muted",
        className,
      )}
      {...props}
    />
  );
}
