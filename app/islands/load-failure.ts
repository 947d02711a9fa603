// What a visitor sees when they sent an island's form or pressed one of its buttons and the
// island's code cannot load (the network is down, or a deploy has removed the files an older page
// asks for): one alert of the runtime's own, outside every island and without React, which goes
// once a later load works (islands/hydrate.ts; a held link is followed instead).

export const LOAD_FAILURE_MESSAGE =
  "This part of the page could not load. Check your connection and try again.";

let shown: HTMLElement | null = null;

/**
 * Shows the alert (`message`, else that the part could not load); a new one if it is already
 * there, so that it is announced again.
 */
export function showLoadFailure(message = LOAD_FAILURE_MESSAGE): void {
  shown?.remove();
  shown = document.createElement("div");
  shown.setAttribute("role", "alert");
  shown.dataset.loadFailure = "";
  shown.className =
    "fixed inset-x-4 bottom-4 z-[100] rounded-lg bg-destructive px-4 py-3 text-sm font-medium text-destructive-foreground shadow-lg sm:right-auto sm:max-w-sm";
  shown.textContent = message;
  document.body.append(shown);
}

export function hideLoadFailure(): void {
  shown?.remove();
  shown = null;
}
