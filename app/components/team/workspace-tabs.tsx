// The workspace's sections as tabs (WAI-ARIA tabs pattern): one tab stop for the list, arrow keys,
// Home and End move between tabs and show each (automatic activation); the chosen tab lives in the
// URL's fragment, so a reload or the browser's Back keeps it.
import type * as React from "react";
import { useEffect, useId, useRef, useState } from "react";
import type { WorkspaceTab } from "../../content/team.ts";
import { cn } from "../../lib/cn.ts";
import { hashOf, placeOf, type WorkspacePlace } from "../../lib/team.ts";
import { Tab } from "../ui/tabs.tsx";

/**
 * The place in the fragment, kept in step with it (Back, Forward, an edited URL). `go` adds a
 * history entry; with `replace` (a filter changed) it rewrites the current one.
 */
export function useWorkspacePlace(): [
  WorkspacePlace,
  (next: WorkspacePlace, opts?: { replace?: boolean }) => void,
] {
  const [place, setPlace] = useState<WorkspacePlace>(() => placeOf(window.location.hash));
  useEffect(() => {
    const follow = () => setPlace(placeOf(window.location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);
  const go = (next: WorkspacePlace, opts: { replace?: boolean } = {}) => {
    const hash = hashOf(next);
    if (hash !== window.location.hash)
      history[opts.replace ? "replaceState" : "pushState"](null, "", hash);
    setPlace(next);
  };
  return [place, go];
}

export function WorkspaceTabs({
  tabs: shown,
  current,
  onSelect,
  takeFocus = false,
  children,
}: {
  /** The tabs this person sees (an admin's tabs only to admins). */
  tabs: readonly { id: WorkspaceTab; label: string }[];
  current: WorkspaceTab;
  onSelect: (tab: WorkspaceTab) => void;
  /** The workspace replaced a step of the gate in place: the panel takes the focus. */
  takeFocus?: boolean;
  /** The chosen tab's panel. */
  children: React.ReactNode;
}) {
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (takeFocus) panel.current?.focus();
  }, [takeFocus]);
  const onKeyDown = (e: React.KeyboardEvent, index: number) => {
    const last = shown.length - 1;
    const to = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    onSelect(shown[to]!.id);
    tabs.current[to]?.focus();
  };
  return (
    <div className="grid gap-5">
      <div
        role="tablist"
        aria-label="Workspace sections"
        className="flex flex-wrap gap-1 border-b border-border"
      >
        {shown.map((tab, index) => {
          const selected = tab.id === current;
          return (
            <Tab
              key={tab.id}
              ref={(el) => {
                tabs.current[index] = el;
              }}
              selected={selected}
              panelId={`${id}-panel`}
              id={`${id}-tab-${tab.id}`}
              onClick={() => onSelect(tab.id)}
              onKeyDown={(e) => onKeyDown(e, index)}
              className={cn(
                "-mb-px shrink-0 rounded-t-lg border-b-2 px-4 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-3 focus-visible:outline-offset-[-3px] focus-visible:outline-ring",
                selected
                  ? "border-primary text-primary"
                  : "border-transparent text-slate-700 hover:border-input hover:text-ink",
              )}
            >
              {tab.label}
            </Tab>
          );
        })}
      </div>
      <div
        ref={panel}
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${current}`}
        tabIndex={0}
        // outline-none sets Tailwind's outline style to none; outline-solid brings it back on focus.
        className="rounded-lg outline-none focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-ring focus-visible:outline-solid"
      >
        {children}
      </div>
    </div>
  );
}
