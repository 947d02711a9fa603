// What of an element the visitor sees, for the tests that judge pictures and text as drawn.

/** A rectangle in the page's viewport coordinates. */
export type Rect = { left: number; top: number; right: number; bottom: number };

/**
 * An element's box, and the part of it that is drawn: less what its ancestors clip (an overflow
 * other than visible) and what lies beyond the page's width; null when nothing of it is drawn
 * (hidden, invisible, transparent or clipped away). Runs in the page: pass it to evaluate().
 */
export function shownBox(el: Element): { box: Rect; shown: Rect | null } {
  const { left, top, right, bottom, width, height } = el.getBoundingClientRect();
  const box = { left, top, right, bottom };
  const shown = { left: Math.max(left, 0), top, right: Math.min(right, innerWidth), bottom };
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const { overflowX, overflowY } = getComputedStyle(p);
    if (overflowX === "visible" && overflowY === "visible") continue;
    const clip = p.getBoundingClientRect();
    shown.left = Math.max(shown.left, clip.left);
    shown.top = Math.max(shown.top, clip.top);
    shown.right = Math.min(shown.right, clip.right);
    shown.bottom = Math.min(shown.bottom, clip.bottom);
  }
  const drawn =
    el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
    width > 0 &&
    height > 0 &&
    shown.right - shown.left >= 1 &&
    shown.bottom - shown.top >= 1;
  return { box, shown: drawn ? shown : null };
}

/** Whether the inner rectangle lies within the outer one (to a pixel). */
export function within(inner: Rect, outer: Rect): boolean {
  return (
    inner.left >= outer.left - 1 &&
    inner.right <= outer.right + 1 &&
    inner.top >= outer.top - 1 &&
    inner.bottom <= outer.bottom + 1
  );
}
