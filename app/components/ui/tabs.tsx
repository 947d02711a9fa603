import type * as React from "react";

/**
 * One tab of a tab list (WAI-ARIA tabs pattern): only the selected tab is in the tab order (the
 * arrow keys move between tabs, handled by the list's owner), and it names the panel it shows.
 */
export function Tab({
  selected,
  panelId,
  ...props
}: React.ComponentProps<"button"> & { selected: boolean; panelId: string }) {
  return (
    <button
      data-slot="tab"
      data-state={selected ? "active" : "inactive"}
      type="button"
      role="tab"
      aria-selected={selected}
      aria-controls={panelId}
      tabIndex={selected ? 0 : -1}
      {...props}
    />
  );
}
