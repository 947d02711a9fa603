import * as NavigationMenuPrimitive from "@radix-ui/react-navigation-menu";
import { cva } from "class-variance-authority";
import type * as React from "react";
import { cn } from "../../lib/cn.ts";
import { opensElsewhere } from "../../lib/link-clicks.ts";

/** A menu opens after 200 ms, skip the delay for 300 ms after closing; Radix closes after 150 ms. */
export const MENU_DELAY_MS = 200;
export const MENU_SKIP_DELAY_MS = 300;

export function NavigationMenu({
  className,
  children,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Root>) {
  return (
    <NavigationMenuPrimitive.Root
      data-slot="navigation-menu"
      delayDuration={MENU_DELAY_MS}
      skipDelayDuration={MENU_SKIP_DELAY_MS}
      className={cn("relative flex max-w-max flex-1 items-center justify-center", className)}
      {...props}
    >
      {children}
      <div className="absolute top-full left-0 isolate z-50 flex justify-center">
        <NavigationMenuPrimitive.Viewport
          data-slot="navigation-menu-viewport"
          className="relative mt-2 h-(--radix-navigation-menu-viewport-height) w-full origin-top overflow-hidden rounded-xl border border-border bg-white shadow-lg md:w-(--radix-navigation-menu-viewport-width)"
        />
      </div>
    </NavigationMenuPrimitive.Root>
  );
}

export function NavigationMenuList({
  className,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.List>) {
  return (
    <NavigationMenuPrimitive.List
      data-slot="navigation-menu-list"
      className={cn("flex list-none items-center gap-1", className)}
      {...props}
    />
  );
}

export function NavigationMenuItem({
  className,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Item>) {
  return (
    <NavigationMenuPrimitive.Item
      data-slot="navigation-menu-item"
      className={cn("relative", className)}
      {...props}
    />
  );
}

export const navigationMenuTriggerStyle = cva(
  "group inline-flex h-10 items-center justify-center rounded-lg px-3 text-sm font-medium text-slate-700 transition-colors hover:bg-muted hover:text-foreground data-[state=open]:bg-muted data-[state=open]:text-foreground",
);

/**
 * A menu's trigger. With `href` it is a link to a page listing the menu's items, which is what it
 * does until the page's script runs; once it runs, a plain click toggles the menu instead.
 */
export function NavigationMenuTrigger({
  className,
  children,
  href,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Trigger> & { href?: string }) {
  const chevron = (
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
  );
  const classes = cn(navigationMenuTriggerStyle(), "gap-1", className);
  if (!href)
    return (
      <NavigationMenuPrimitive.Trigger
        data-slot="navigation-menu-trigger"
        className={classes}
        {...props}
      >
        {children}
        {chevron}
      </NavigationMenuPrimitive.Trigger>
    );
  return (
    <NavigationMenuPrimitive.Trigger
      data-slot="navigation-menu-trigger"
      className={classes}
      asChild
      {...props}
      onClick={(event) => {
        props.onClick?.(event);
        // Stops the browser following the link but leaves React's event unmarked, so Radix
        // (which skips a click its caller prevented) still toggles the menu.
        if (!opensElsewhere(event)) event.nativeEvent.preventDefault();
      }}
    >
      <a href={href}>
        {children}
        {chevron}
      </a>
    </NavigationMenuPrimitive.Trigger>
  );
}

export function NavigationMenuContent({
  className,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Content>) {
  return (
    <NavigationMenuPrimitive.Content
      data-slot="navigation-menu-content"
      className={cn("top-0 left-0 w-full p-2 md:absolute md:w-auto", className)}
      {...props}
    />
  );
}

export function NavigationMenuLink({
  className,
  ...props
}: React.ComponentProps<typeof NavigationMenuPrimitive.Link>) {
  return (
    <NavigationMenuPrimitive.Link
      data-slot="navigation-menu-link"
      className={cn(
        "block rounded-lg p-3 text-sm transition-colors hover:bg-muted focus:bg-muted",
        className,
      )}
      {...props}
    />
  );
}
