import { Container } from "../components/layout/container.tsx";
import { cn } from "../lib/cn.ts";

type SectionHeadingProps = {
  eyebrow?: string;
  title: React.ReactNode;
  lead?: React.ReactNode;
  align?: "center" | "left";
  id?: string;
  className?: string;
  tone?: "light" | "dark";
};

/** The heading block of a page section: an eyebrow, an h2 and a lead paragraph. */
export function SectionHeading({
  eyebrow,
  title,
  lead,
  align = "center",
  id,
  className,
  tone = "light",
}: SectionHeadingProps) {
  return (
    <div className={cn("max-w-3xl", align === "center" && "mx-auto text-center", className)}>
      {eyebrow && (
        <p
          className={cn(
            "text-sm font-semibold tracking-wide uppercase",
            tone === "dark" ? "text-teal-300" : "text-primary",
          )}
        >
          {eyebrow}
        </p>
      )}
      <h2
        id={id}
        className={cn(
          "mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl",
          tone === "dark" ? "text-white" : "text-ink",
        )}
      >
        {title}
      </h2>
      {lead && (
        <p
          className={cn(
            "mt-4 text-lg leading-8",
            tone === "dark" ? "text-slate-300" : "text-muted-foreground",
          )}
        >
          {lead}
        </p>
      )}
    </div>
  );
}

/** A page section led by its heading block, named by its h2; the content follows in the container. */
export function HeadedSection({
  id,
  className,
  children,
  ...heading
}: Omit<SectionHeadingProps, "id" | "className"> & {
  id: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <Container>
        <SectionHeading id={id} {...heading} />
        {children}
      </Container>
    </section>
  );
}
