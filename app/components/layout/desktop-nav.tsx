// The desktop navigation: Products and Resources menus (disclosure menus, ui/navigation-menu.tsx)
// and the main links. An island: the markup is prerendered; the menus wake up at the first pointer
// or focus on them. Until then the triggers are links to the pages that list the menus' items.
import {
  mainLinks,
  menuFallbacks,
  productLinks,
  resourceLinks,
  type NavLink as Item,
} from "../../content/site.ts";
import { cn } from "../../lib/cn.ts";
import {
  NavigationMenu,
  NavigationMenuContent,
  NavigationMenuItem,
  NavigationMenuLink,
  NavigationMenuList,
  NavigationMenuTrigger,
  navigationMenuTriggerStyle,
} from "../ui/navigation-menu.tsx";

function MenuPanel({ items, footer }: { items: Item[]; footer?: Item }) {
  return (
    <ul className="grid w-[22rem] gap-1">
      {items.map((item) => (
        <li key={item.href}>
          <NavigationMenuLink href={item.href}>
            <span className="block font-semibold text-foreground">{item.label}</span>
            <span className="mt-1 block leading-snug text-muted-foreground">
              {item.description}
            </span>
          </NavigationMenuLink>
        </li>
      ))}
      {footer && (
        <li className="border-t border-border pt-1">
          <NavigationMenuLink href={footer.href} className="font-medium text-primary">
            {footer.label} →
          </NavigationMenuLink>
        </li>
      )}
    </ul>
  );
}

export function DesktopNav({ currentPath }: { currentPath: string }) {
  return (
    <NavigationMenu aria-label="Main">
      <NavigationMenuList>
        <NavigationMenuItem value="products">
          <NavigationMenuTrigger href={menuFallbacks.products}>Products</NavigationMenuTrigger>
          <NavigationMenuContent>
            <MenuPanel items={productLinks} footer={{ label: "All products", href: "/product" }} />
          </NavigationMenuContent>
        </NavigationMenuItem>
        <NavigationMenuItem value="resources">
          <NavigationMenuTrigger href={menuFallbacks.resources}>Resources</NavigationMenuTrigger>
          <NavigationMenuContent>
            <MenuPanel items={resourceLinks} />
          </NavigationMenuContent>
        </NavigationMenuItem>
        {mainLinks.map((link) => (
          <NavigationMenuItem key={link.href}>
            <NavigationMenuLink
              href={link.href}
              active={currentPath === link.href}
              aria-current={currentPath === link.href ? "page" : undefined}
              className={cn(navigationMenuTriggerStyle(), "p-0 px-3 data-[active]:text-primary")}
            >
              {link.label}
            </NavigationMenuLink>
          </NavigationMenuItem>
        ))}
      </NavigationMenuList>
    </NavigationMenu>
  );
}
