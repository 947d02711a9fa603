// @vitest-environment node
// The layers of app/, and the absence of module cycles in every source folder, are enforced by lint
// (eslint.config.js): these run the real ESLint with the repository's own configuration on small
// sources placed inside the tree, so a rule that stops biting fails here.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

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
        expect.stringMatching(/^import-x\/no-cycle: /),
      ]),
    );
  });

  it("refuses a cycle inside one layer", async () => {
    // forms/lead-form-submit.tsx imports forms/captcha.tsx; captcha importing it back closes a cycle.
    const errors = await ruleErrors(
      "app/forms/captcha.tsx",
      'import { LeadFormSubmit } from "./lead-form-submit.tsx";\nexport const Submit = LeadFormSubmit;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^import-x\/no-cycle: /)]);
  });

  it("accepts imports downwards", async () => {
    const errors = await ruleErrors(
      "app/forms/fixture.tsx",
      'import { Button } from "../components/ui/button.tsx";\nimport { brand } from "../content/site.ts";\nimport { cn } from "../lib/cn.ts";\nexport const parts = [Button, brand, cn];\n',
    );
    expect(errors).toEqual([]);
  });
});

describe("server/ and common/", () => {
  it("refuses a cycle on the server: the outbox importing the lead store that imports it", async () => {
    const errors = await ruleErrors(
      "server/mail/outbox.ts",
      'import { storeLead } from "../leads/store.ts";\nexport const store = storeLead;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^import-x\/no-cycle: /)]);
  });

  it("refuses server/ code in common/", async () => {
    const errors = await ruleErrors(
      "common/fixture.ts",
      'import { storeLead } from "../server/leads/store.ts";\nexport const store = storeLead;\n',
    );
    expect(errors).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });
});
