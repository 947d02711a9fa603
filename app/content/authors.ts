// Blog authors: members of the team (content/people.ts), keyed by id.
import { team, type Person } from "./people.ts";

export const authors: Readonly<Record<string, Person>> = Object.fromEntries(
  team.map((p) => [p.id, p]),
);
