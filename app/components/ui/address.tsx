import type * as React from "react";
import type { AddressLine as Line } from "../../content/types.ts";

/** An address (email) in running text: bold, broken anywhere when it is long. */
export function Address({ children }: { children: React.ReactNode }) {
  return (
    <strong data-slot="address" className="font-semibold break-all text-ink">
      {children}
    </strong>
  );
}

/** Words that name an address, around it. */
export function AddressLine({ line, address }: { line: Line; address: string }) {
  return (
    <>
      {line.before}
      <Address>{address}</Address>
      {line.after}
    </>
  );
}
