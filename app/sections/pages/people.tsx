import { ExternalLink } from "../../components/layout/external-link.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Person } from "../../content/people.ts";
import { cn } from "../../lib/cn.ts";

/**
 * A person's LinkedIn profile, in a new tab; named "<name> on LinkedIn" for assistive technology.
 * Nothing for a person without a real profile.
 */
export function LinkedInLink({ person, className }: { person: Person; className?: string }) {
  if (!person.linkedin) return null;
  return (
    <ExternalLink
      href={person.linkedin}
      className={cn(
        "inline-flex min-h-9 items-center gap-2 rounded-lg px-2 -mx-2 text-sm font-semibold text-primary hover:bg-secondary hover:text-indigo-900",
        className,
      )}
    >
      <Icon name="linkedin" className="size-4" />
      <span>
        <span className="sr-only">{person.name} on </span>LinkedIn
      </span>
    </ExternalLink>
  );
}

/** A portrait: a decorative illustration next to the person's name (alt=""). */
export function Portrait({
  person,
  size,
  className,
  lazy = true,
}: {
  person: Person;
  size: number;
  className?: string;
  lazy?: boolean;
}) {
  return (
    <img
      src={person.image}
      alt=""
      width={size}
      height={size}
      {...(lazy ? { loading: "lazy" as const, decoding: "async" as const } : {})}
      className={cn("shrink-0 rounded-full bg-slate-100 ring-4 ring-white", className)}
    />
  );
}
