import type * as React from "react";

/** A field people never see; bots that fill it give themselves away (see common/leads.ts). */
export function Honeypot({
  name,
  inputRef,
}: {
  name: string;
  inputRef: React.Ref<HTMLInputElement>;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this empty
        <input
          ref={inputRef}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          name={name}
          defaultValue=""
        />
      </label>
    </div>
  );
}
