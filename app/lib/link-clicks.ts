// Links that scripts turn into controls (a menu, a dialog) keep the browser's own behaviour for a
// click that asks for a new tab or window, so people can still open the page behind them.
type Click = Pick<MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey">;

export function opensElsewhere(event: Click): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}
