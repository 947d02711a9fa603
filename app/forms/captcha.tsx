// "I'm not a robot": the ALTCHA widget (proof of work solved in the browser, verified by our
// server; nothing leaves our servers). Its code loads with the form that uses it; a tick given
// before it has arrived is kept and starts the work as soon as it has. Code that cannot load is
// said so, and loaded again at the next tick.
import type {} from "altcha/types/react";
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { FUNCTIONS } from "../../common/functions.ts";

export type CaptchaHandle = { reset(): void };

// The element's methods exist only once its component has mounted, a moment after it is connected
// (the widget says so with a "load" event); calling them earlier throws.
type Widget = HTMLElement & { reset?: () => void; verify?: () => Promise<unknown> };

export const CAPTCHA_LOAD_FAILED =
  "The check could not load. Check your connection and press it again.";

const CONFIGURATION = JSON.stringify({ hideFooter: true, hideLogo: true, minDuration: 400 });

export function Captcha({
  onChange,
  ref,
}: {
  onChange: (payload: string | null) => void;
  ref?: Ref<CaptchaHandle>;
}) {
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const widget = useRef<Widget>(null);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  const live = useRef(true);
  const load = useCallback(() => {
    import("altcha").then(
      () => live.current && setReady(true),
      () => live.current && setFailed(true),
    );
  }, []);
  useEffect(() => {
    live.current = true;
    load();
    return () => {
      live.current = false;
    };
  }, [load]);

  // Listeners go on as the element is attached, before it can announce anything.
  const attach = useCallback((el: Widget | null) => {
    widget.current = el;
    if (!el) return;
    const onLoad = () => setLoaded(true);
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload: string | null }>)
        .detail;
      latest.current(state === "verified" && payload ? payload : null);
    };
    el.addEventListener("load", onLoad);
    el.addEventListener("statechange", onState);
    return () => {
      el.removeEventListener("load", onLoad);
      el.removeEventListener("statechange", onState);
      widget.current = null;
    };
  }, []);

  useEffect(() => {
    if (loaded && wanted) void widget.current?.verify?.();
  }, [loaded, wanted]);

  useImperativeHandle(ref, () => ({
    reset: () => {
      widget.current?.reset?.();
      latest.current(null);
    },
  }));

  if (!ready) {
    // Same footprint as the widget, so nothing moves when it arrives.
    return (
      <div className="grid gap-1">
        <button
          type="button"
          aria-pressed={wanted}
          onClick={() => {
            setWanted(true);
            if (failed) {
              setFailed(false);
              load();
            }
          }}
          className="flex h-[50px] w-full max-w-[320px] items-center gap-2 rounded-md border border-input px-3 text-left text-sm text-slate-700"
        >
          <span
            aria-hidden="true"
            className="grid size-[22px] place-items-center rounded-[5px] border border-slate-400"
          >
            {wanted && !failed && (
              <span className="size-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" />
            )}
          </span>
          I'm not a robot
        </button>
        {wanted && failed && (
          <p role="alert" className="text-sm text-destructive">
            {CAPTCHA_LOAD_FAILED}
          </p>
        )}
      </div>
    );
  }
  return (
    <altcha-widget
      ref={attach}
      challenge={`/functions/v1/${FUNCTIONS.captchaChallenge}`}
      configuration={CONFIGURATION}
    />
  );
}
