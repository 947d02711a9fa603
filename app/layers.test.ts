// @vitest-environment node
// The layers of app/ and of server/, and the absence of module cycles in every source folder (type
// imports included), are enforced by lint (eslint.config.js): these run the real ESLint with the
// repository's own configuration on small sources placed inside the tree, so a rule that stops
// biting fails here.
import { ESLint } from "eslint";
import { describe, expect, it, vi } from "vitest";

// The first lint loads the parsers and the resolvers, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("app/ layers", () => {
  it("refuses an import from a layer above", async () => {
    const errors = await ruleErrors(
      "app/components/layout/fixture.tsx",
      'import { SiteFooter } from "../../sections/site-footer.tsx";\nexport const Footer = SiteFooter;\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: .*components\/ \(widgets\) sits below sections/,
      ),
    ]);
  });

  it("refuses a dynamic import from a layer above, and the cycle it closes", async () => {
    // The toast store loading its own view: the view imports the store, so this is also a cycle.
    const errors = await ruleErrors(
      "app/lib/toast.ts",
      'export const loadToaster = () => import("../components/ui/toaster.tsx");\n',
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^import-x\/no-restricted-paths: .*lib sits below components\/ui/),
        expect.stringMatching(/^local\/no-cycle: /),
      ]),
    );
  });

  it("refuses a cycle inside one layer", async () => {
    // forms/lead-form-submit.tsx imports forms/captcha.tsx; captcha importing it back closes a cycle.
    const errors = await ruleErrors(
      "app/forms/captcha.tsx",
      'import { LeadFormSubmit } from "./lead-form-submit.tsx";\nexport const Submit = LeadFormSubmit;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^local\/no-cycle: /)]);
  });

  it("accepts imports downwards", async () => {
    const errors = await ruleErrors(
      "app/forms/fixture.tsx",
      'import { Button } from "../components/ui/button.tsx";\nimport { brand } from "../content/site.ts";\nimport { cn } from "../lib/cn.ts";\nexport const parts = [Button, brand, cn];\n',
    );
    expect(errors).toEqual([]);
  });
});

describe("server/ layers", () => {
  it("refuses an import from a layer above: the database reading the configuration", async () => {
    const errors = await ruleErrors(
      "server/db/fixture.ts",
      'import type { Config } from "../config.ts";\nexport type Options = Config;\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*db sits below config/),
    ]);
  });

  it("refuses the composition's parts below it: a protocol error handler naming the app", async () => {
    const errors = await ruleErrors(
      "server/http/fixture.ts",
      'import { authErrorHandler } from "../auth/errors.ts";\nexport const handler = authErrorHandler;\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*http sits below protocols/),
    ]);
  });

  it("refuses an import between the independent folders of one layer", async () => {
    const errors = await ruleErrors(
      "server/site/fixture.ts",
      'import { AuthError } from "../auth/errors.ts";\nexport const Refusal = AuthError;\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^import-x\/no-restricted-paths: .*server\/site and the other folders of protocols are independent/,
      ),
    ]);
  });

  it("accepts imports downwards, and anything from a test beside the code", async () => {
    const downwards = await ruleErrors(
      "server/leads/fixture.ts",
      'import type { Config } from "../config.ts";\nimport type { Queryable } from "../db/database.ts";\nimport { queueEmailsStatement } from "../mail/outbox.ts";\nexport const parts = [queueEmailsStatement];\nexport type Parts = [Config, Queryable];\n',
    );
    expect(downwards).toEqual([]);
    const test = await ruleErrors(
      "server/db/fixture.test.ts",
      'import { buildApp } from "../app.ts";\nexport const build = buildApp;\n',
    );
    expect(test).toEqual([]);
  });
});

describe("server/ and common/", () => {
  it("refuses a cycle on the server: the outbox importing the mailer that imports it", async () => {
    const errors = await ruleErrors(
      "server/mail/outbox.ts",
      'import mailer from "./mailer.ts";\nexport const plugin = mailer;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^local\/no-cycle: /)]);
  });

  it("refuses a cycle made only of type imports", async () => {
    // sessions.ts imports factors.ts (the User JSON's factors); a type import back closes a cycle.
    const errors = await ruleErrors(
      "server/auth/models/factors.ts",
      'import type { SessionRow } from "./sessions.ts";\nexport type Raised = SessionRow;\n',
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^local\/no-cycle: Dependency cycle: server\/auth\/models\/factors\.ts → server\/auth\/models\/sessions\.ts → server\/auth\/models\/factors\.ts/,
      ),
    ]);
  });

  it("refuses server/ code in common/", async () => {
    const errors = await ruleErrors(
      "common/fixture.ts",
      'import { storeLead } from "../server/leads/store.ts";\nexport const store = storeLead;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });
});
