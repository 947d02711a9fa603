// Radix toasts: F8 focuses the region, a 50 px swipe or Escape closes a toast, each
// closes after its duration (5 s by default). Mounted in its own root on the first toast.
import * as ToastPrimitive from "@radix-ui/react-toast";
import { useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { dismissToast, getToasts, subscribeToasts, TOAST_DURATION_MS } from "../../lib/toast.ts";
import { cn } from "../../lib/cn.ts";
import { Icon } from "./icon.tsx";

const SWIPE_THRESHOLD_PX = 50;

function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, () => []);
  return (
    <ToastPrimitive.Provider
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
      duration={TOAST_DURATION_MS}
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration ?? TOAST_DURATION_MS}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          data-variant={t.variant ?? "default"}
          className={cn(
            "group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg transition-all",
            "data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x) data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none",
            "data-[state=closed]:opacity-0 data-[state=open]:animate-in",
            t.variant === "destructive"
              ? "border-red-800 bg-destructive text-destructive-foreground"
              : "border-border bg-white text-foreground",
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {t.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-3 right-3 rounded-md p-1 opacity-80 hover:opacity-100"
          >
            <Icon name="x" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed top-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}

export function mountToaster() {
  const host = document.createElement("div");
  host.setAttribute("data-toaster", "");
  document.body.append(host);
  createRoot(host).render(<Toaster />);
}
