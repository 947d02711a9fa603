// "I'm not a robot": the ALTCHA widget (proof of work solved in the browser, verified by our
// server; nothing leaves our servers). Its code loads with the form that uses it.
import type {} from "altcha/types/react";
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { FUNCTIONS } from "../../common/functions.ts";

export type CaptchaHandle = { reset(): void };

type Widget = HTMLElement & { reset(): void };

const CONFIGURATION = JSON.stringify({ hideFooter: true, hideLogo: true, minDuration: 400 });

export function Captcha({
  onChange,
  ref,
}: {
  onChange: (payload: string | null) => void;
  ref?: Ref<CaptchaHandle>;
}) {
  const [ready, setReady] = useState(false);
  const widget = useRef<Widget>(null);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });

  useEffect(() => {
    let live = true;
    void import("altcha").then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const el = widget.current;
    if (!ready || !el) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload: string | null }>)
        .detail;
      latest.current(state === "verified" && payload ? payload : null);
    };
    el.addEventListener("statechange", onState);
    return () => el.removeEventListener("statechange", onState);
  }, [ready]);

  useImperativeHandle(ref, () => ({
    reset: () => {
      widget.current?.reset();
      latest.current(null);
    },
  }));

  if (!ready) {
    // Same footprint as the widget, so nothing moves when it arrives.
    return (
      <div
        className="flex h-[50px] max-w-[320px] items-center gap-2 rounded-md border border-input px-3 text-sm text-slate-700"
        aria-hidden="true"
      >
        <span className="size-[22px] rounded-[5px] border border-slate-400" />
        I'm not a robot
      </div>
    );
  }
  return (
    <altcha-widget
      ref={widget}
      challenge={`/functions/v1/${FUNCTIONS.captchaChallenge}`}
      configuration={CONFIGURATION}
    />
  );
}
