// The line under a lead form that says what happens with the data, with the privacy policy's link.
import { pages } from "../content/pages.ts";
import { type PrivacyNoteKind, privacyNotes } from "../content/privacy-notes.ts";
import { cn } from "../lib/cn.ts";

export function PrivacyNote({
  kind,
  tone = "light",
  className,
}: {
  kind: PrivacyNoteKind;
  /** "dark" on the ink footer. */
  tone?: "light" | "dark";
  className?: string;
}) {
  return (
    <p
      data-privacy-note=""
      className={cn(
        "text-xs leading-5",
        tone === "dark" ? "text-slate-300" : "text-slate-600",
        className,
      )}
    >
      {privacyNotes[kind]}{" "}
      <a
        href={pages.privacy.path}
        className={cn(
          "font-semibold underline underline-offset-2",
          tone === "dark"
            ? "text-white hover:text-indigo-200"
            : "text-primary hover:text-indigo-900",
        )}
      >
        Privacy policy
      </a>
    </p>
  );
}
