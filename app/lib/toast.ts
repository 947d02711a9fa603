// The toast store: at most 5 toasts, newest first; add, update, dismiss (open=false)
// and remove. It knows nothing of how toasts are shown, and imports no React (the page runtime
// loads it before any island): the runtime (islands/boot.ts) loads the Radix toaster
// (components/ui/toaster.tsx) with the first toast, or once an island is live.
import { readableMessage, type Failure } from "./errors.ts";

export const TOAST_LIMIT = 5;
export const TOAST_DURATION_MS = 5000;
const REMOVE_DELAY_MS = 1000; // after dismissal, leave time for the exit animation

export type ToastData = {
  id: string;
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  duration?: number;
  open: boolean;
};

/** What a caller gives for a toast (the store adds its id and state). */
export type ToastInput = Omit<ToastData, "id" | "open">;

type Listener = () => void;
let toasts: ToastData[] = [];
const listeners = new Set<Listener>();
let counter = 0;

function emit(next: ToastData[]) {
  toasts = next;
  for (const l of listeners) l();
}

export function toast(input: Omit<ToastData, "id" | "open">): {
  id: string;
  dismiss: () => void;
  update: (t: Partial<ToastData>) => void;
} {
  const id = String(++counter);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id), update: (t) => updateToast(id, t) };
}

/**
 * The site's error toast: "Error" and what went wrong (a failed connection, a rate limit said in
 * people's words: pass the server's error itself, not only its message).
 */
export function errorToast(failure: Failure): void {
  toast({ variant: "destructive", title: "Error", description: readableMessage(failure) });
}

/** Runs an action, showing its failure (a thrown error) as a toast. */
export async function withErrorToast(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    errorToast(err instanceof Error ? err : "Something went wrong. Please try again.");
  }
}

export function updateToast(id: string, patch: Partial<ToastData>) {
  emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)));
}

export function dismissToast(id?: string) {
  const closing = new Set(id === undefined ? toasts.map((t) => t.id) : [id]);
  emit(toasts.map((t) => (closing.has(t.id) ? { ...t, open: false } : t)));
  // Leave time for the exit animation; toasts added meanwhile stay.
  setTimeout(() => emit(toasts.filter((t) => !closing.has(t.id))), REMOVE_DELAY_MS);
}

/** Removes one toast, or all of them without an id. */
export function removeToast(id?: string) {
  emit(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

export function getToasts(): ToastData[] {
  return toasts;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Toasts that must survive a page load (e.g. "Logged out successfully" after going to /).
const FLASH_KEY = "revwise-flash-toasts";

export function flashToast(input: Omit<ToastData, "id" | "open">) {
  try {
    const pending = JSON.parse(sessionStorage.getItem(FLASH_KEY) ?? "[]") as Omit<
      ToastData,
      "id" | "open"
    >[];
    sessionStorage.setItem(FLASH_KEY, JSON.stringify([...pending, input].slice(-TOAST_LIMIT)));
  } catch {
    toast(input);
  }
}

export function showFlashToasts() {
  try {
    const pending = JSON.parse(sessionStorage.getItem(FLASH_KEY) ?? "[]") as Omit<
      ToastData,
      "id" | "open"
    >[];
    sessionStorage.removeItem(FLASH_KEY);
    for (const t of pending) toast(t);
  } catch {
    // Nothing to show.
  }
}
