import type * as React from "react";
import { cn } from "../../lib/cn.ts";
import { controlClass } from "./input.tsx";

/** A native select: accessible, keyboard- and phone-friendly, no extra JavaScript. */
export function Select({ className, ...props }: React.ComponentProps<"select">) {
  return (
    <select
      data-slot="select"
      className={cn(
        controlClass,
        "h-10 appearance-none bg-(image:--select-arrow) bg-size-[1rem] bg-position-[right_0.75rem_center] bg-no-repeat pr-9",
        className,
      )}
      {...props}
    />
  );
}

/** A select's choices after a first one that chooses nothing ("Select a size", "All forms"). */
export function SelectOptions({
  placeholder,
  options,
}: {
  placeholder: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <>
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
