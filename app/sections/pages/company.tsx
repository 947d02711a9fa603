import { Container } from "../../components/layout/container.tsx";
import type { IconName } from "../../components/ui/icon.tsx";
import type { Person } from "../../content/people.ts";
import type { Point } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";
import { HeadedSection, SectionHeading } from "../section-heading.tsx";
import { LinkedInLink, Portrait } from "./people.tsx";

type Statement = { title: string; text: string };

/** Our story beside the Vision and Mission cards. */
export function CompanyStory({
  story,
  vision,
  mission,
}: {
  story: string[];
  vision: Statement;
  mission: Statement;
}) {
  return (
    <section aria-labelledby="story-title" className="py-16 sm:py-20">
      <Container className="grid gap-12 lg:grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)] lg:gap-16">
        <div>
          <SectionHeading
            id="story-title"
            eyebrow="Our story"
            title="From Sunday-night CRM updates to Revwise"
            align="left"
          />
          <div className="mt-6 space-y-5 text-lg leading-8 text-slate-700">
            {story.map((paragraph) => (
              <p key={paragraph.slice(0, 32)}>{paragraph}</p>
            ))}
          </div>
        </div>
        <div className="grid content-start gap-6">
          <StatementCard statement={vision} icon="target" tone="indigo" />
          <StatementCard statement={mission} icon="sparkles" tone="teal" />
        </div>
      </Container>
    </section>
  );
}

function StatementCard({
  statement,
  icon,
  tone,
}: {
  statement: Statement;
  icon: IconName;
  tone: "indigo" | "teal";
}) {
  return (
    <IconItem
      as="div"
      icon={icon}
      tone={tone === "indigo" ? "solid" : "accent-solid"}
      title={statement.title}
      description={statement.text}
      className={cn(
        "rounded-2xl border p-6 sm:p-8",
        tone === "indigo" ? "border-indigo-100 bg-indigo-50" : "border-teal-100 bg-teal-50",
      )}
    />
  );
}

const VALUE_ICONS: IconName[] = ["users", "target", "shield", "mic"];

export function CompanyValues({ values }: { values: Point[] }) {
  return (
    <HeadedSection
      id="values-title"
      className="border-y border-border bg-slate-50 py-16 sm:py-20"
      eyebrow="Our values"
      title="What we hold ourselves to"
      lead="Four rules that decide what we build, and what we leave out."
    >
      <ul role="list" className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {values.map((value, i) => (
          <IconItem
            key={value.title}
            icon={VALUE_ICONS[i % VALUE_ICONS.length]!}
            title={value.title}
            description={value.description}
            className={ITEM_CARD}
          />
        ))}
      </ul>
    </HeadedSection>
  );
}

/** A team member: a large portrait over the name, role, bio and LinkedIn. */
function TeamCard({ person }: { person: Person }) {
  return (
    <li className="flex flex-col items-center rounded-2xl border border-border bg-white p-8 text-center shadow-sm">
      <Portrait person={person} size={128} className="size-32 ring-indigo-50 ring-8" />
      <h3 className="mt-6 text-xl font-bold text-ink">{person.name}</h3>
      <p className="mt-1 text-sm font-semibold text-primary">{person.role}</p>
      <p className="mt-4 flex-1 leading-7 text-slate-700">{person.bio}</p>
      <LinkedInLink person={person} className="mx-0 mt-4" />
    </li>
  );
}

/** An advisor: a smaller portrait beside the name and role. */
function AdvisorCard({ person }: { person: Person }) {
  return (
    <li className="flex flex-col rounded-2xl border border-border bg-white p-6 shadow-sm">
      <div className="flex items-center gap-4">
        <Portrait person={person} size={64} className="size-16 ring-slate-50" />
        <div>
          <h3 className="font-bold text-ink">{person.name}</h3>
          <p className="text-sm font-medium text-slate-600">{person.role}</p>
        </div>
      </div>
      <p className="mt-4 flex-1 text-sm leading-6 text-slate-700">{person.bio}</p>
      <LinkedInLink person={person} className="mt-3 self-start" />
    </li>
  );
}

export function CompanyTeam({ team }: { team: Person[] }) {
  return (
    <HeadedSection
      id="team-title"
      className="py-16 sm:py-20"
      eyebrow="Team"
      title="The people building Revwise"
      lead="A founder who carried a quota for twelve years, and two engineers who make sure nothing is lost on the way to your CRM."
    >
      <ul role="list" className="mt-12 grid gap-6 md:grid-cols-3">
        {team.map((person) => (
          <TeamCard key={person.id} person={person} />
        ))}
      </ul>
    </HeadedSection>
  );
}

export function CompanyAdvisors({ advisors }: { advisors: Person[] }) {
  return (
    <HeadedSection
      id="advisors-title"
      className="border-t border-border bg-slate-50 py-16 sm:py-20"
      eyebrow="Advisors"
      title="Board of Advisors"
      lead="Revenue leaders and researchers who have run the sales floors, forecasts and models Revwise is built for."
    >
      <ul role="list" className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {advisors.map((person) => (
          <AdvisorCard key={person.id} person={person} />
        ))}
      </ul>
    </HeadedSection>
  );
}
