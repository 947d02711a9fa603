import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "../../lib/cn.ts";

export const buttonVariants = cva(
  "inline-flex shrink-0 items-center justify-center gap-2 rounded-lg text-sm font-semibold whitespace-nowrap transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 aria-invalid:ring-2 aria-invalid:ring-destructive [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-sm hover:bg-indigo-800",
        accent: "bg-accent text-accent-foreground shadow-sm hover:bg-teal-800",
        outline: "border border-input bg-background text-foreground shadow-xs hover:bg-muted",
        secondary: "bg-secondary text-secondary-foreground hover:bg-indigo-100",
        ghost: "text-foreground hover:bg-muted",
        inverse: "bg-white text-ink shadow-sm hover:bg-indigo-50",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        default: "h-10 px-4 py-2",
        sm: "h-9 px-3",
        lg: "h-12 px-6 text-base",
        icon: "size-10",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

/**
 * A button that is `aria-disabled` (busy with what it started, or with nothing to do) keeps its
 * place in the tab order and the keyboard focus, which a `disabled` one drops to the page; it
 * ignores presses, a submit button's too (Enter in a field of its form presses it), but for
 * `onPressWhileDisabled`, which may say what is missing.
 */
export function Button({
  className,
  variant,
  size,
  asChild = false,
  onClick,
  onPressWhileDisabled,
  ...props
}: React.ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    asChild?: boolean;
    onPressWhileDisabled?: (event: React.MouseEvent<HTMLButtonElement>) => void;
  }) {
  const Comp = asChild ? Slot : "button";
  const inert = props["aria-disabled"] === true || props["aria-disabled"] === "true";
  return (
    <Comp
      data-slot="button"
      className={cn(buttonVariants({ variant, size, className }))}
      onClick={
        inert
          ? (event: React.MouseEvent<HTMLButtonElement>) => {
              event.preventDefault();
              onPressWhileDisabled?.(event);
            }
          : onClick
      }
      {...props}
    />
  );
}
