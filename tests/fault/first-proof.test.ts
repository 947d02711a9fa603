// Two instances of the built server on one PostgreSQL confirm the same pre-registered address at
// the same moment (decision 0041): somebody signed up with the owner's address and a password of
// their own, the owner asked for a sign-in link, and the email's link and its code (or the code
// twice) reach the two instances at once. Exactly one confirms and signs in, the squatter's
// password is void whichever won, and the address was sent one email.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PASSWORD, uniqueEmail, verifyLinkInText } from "../support/auth.ts";
import { waitUntil } from "../support/poll.ts";
import { postgresAvailable } from "../support/postgres.ts";
import { NO_CLIENT_LIMITS, useRacingInstances } from "../support/racing-instances.ts";
import type { RunningServer } from "../support/server-process.ts";

const SQUATTER_PASSWORD = "Squatters-Own-77";

describe.skipIf(!(await postgresAvailable()))(
  "a pre-registered address confirmed on two instances",
  () => {
    const instances = useRacingInstances(NO_CLIENT_LIMITS);
    const { racing } = instances;

    const post = async (server: RunningServer, path: string, body: object) => {
      const res = await fetch(`${server.url}/auth/v1${path}`, {
        method: "POST",
        headers: { apikey: server.anonKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    /** The emails the outbox holds for this address (the dev mailbox keeps each one written). */
    async function emailsTo(email: string) {
      const client = new pg.Client({ connectionString: instances.database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ subject: string; text_body: string }>(
          "SELECT subject, text_body FROM mail.outbox WHERE to_address = $1 ORDER BY created_at",
          [email],
        );
        return rows;
      } finally {
        await client.end();
      }
    }

    /**
     * The squatter's sign-up on one instance, then the owner's sign-in request on the other (within
     * the confirmation's minute: nothing more is sent); the link and code of the one email.
     */
    async function squatted() {
      const email = uniqueEmail("race-squat");
      expect(
        (await post(racing[0]!, "/signup", { email, password: SQUATTER_PASSWORD })).status,
      ).toBe(200);
      expect((await post(racing[1]!, "/otp", { email })).status).toBe(200);
      await waitForDispute(email);
      const [mail] = await emailsTo(email);
      const link = verifyLinkInText(mail!.text_body);
      const code = /enter this code[^:\n]*: (\d{6})/.exec(mail!.text_body)![1]!;
      return { email, link, code };
    }

    /** How a verification came out: signed in, or refused. */
    const byLink = async (server: RunningServer, link: string) => {
      const url = new URL(link);
      const res = await fetch(`${server.url}${url.pathname}${url.search}`, { redirect: "manual" });
      const fragment = new URLSearchParams(new URL(res.headers.get("location")!).hash.slice(1));
      return fragment.get("access_token") ? "signed in" : `refused: ${fragment.get("error_code")}`;
    };
    const byCode = async (server: RunningServer, email: string, code: string) => {
      const { status, body } = await post(server, "/verify", { type: "email", email, token: code });
      return status === 200 && body.access_token ? "signed in" : `refused: ${String(body.code)}`;
    };

    async function expectSquatterVoid(email: string) {
      const signIn = await post(racing[0]!, "/token?grant_type=password", {
        email,
        password: SQUATTER_PASSWORD,
      });
      expect([signIn.status, signIn.body.code]).toEqual([400, "invalid_credentials"]);
      // Nothing else went to the address: the sign-up's one confirmation email.
      expect((await emailsTo(email)).map((m) => m.subject)).toEqual([
        "Confirm your Revwise account",
      ]);
    }

    it("confirms once when the link and the code reach the two instances at once", async () => {
      for (let round = 0; round < 4; round++) {
        const { email, link, code } = await squatted();
        const answers = await Promise.all([
          byLink(racing[round % 2]!, link),
          byCode(racing[(round + 1) % 2]!, email, code),
        ]);
        expect(answers.filter((a) => a === "signed in")).toHaveLength(1);
        expect(answers.filter((a) => a === "refused: otp_expired")).toHaveLength(1);
        await expectSquatterVoid(email);
      }
    });

    it("confirms once when the same code reaches the two instances at once", async () => {
      for (let round = 0; round < 4; round++) {
        const { email, code } = await squatted();
        const answers = await Promise.all(racing.map((s) => byCode(s, email, code)));
        expect(answers.sort()).toEqual(["refused: otp_expired", "signed in"]);
        await expectSquatterVoid(email);
      }
    });

    it("keeps a password the owner set after confirming, whatever instance confirmed", async () => {
      const { email, code } = await squatted();
      const { body } = await post(racing[1]!, "/verify", { type: "email", email, token: code });
      const res = await fetch(`${racing[0]!.url}/auth/v1/user`, {
        method: "PUT",
        headers: {
          apikey: racing[0]!.anonKey,
          authorization: `Bearer ${String(body.access_token)}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(
        (await post(racing[1]!, "/token?grant_type=password", { email, password: PASSWORD }))
          .status,
      ).toBe(200);
    });

    /**
     * The owner's sign-in request is handled after its answer (so that its time tells nothing):
     * waits until it has reached the account, as the owner waits for the email.
     */
    async function waitForDispute(email: string) {
      const client = new pg.Client({ connectionString: instances.database.url });
      await client.connect();
      try {
        await waitUntil(async () => {
          const { rows } = await client.query<{ disputed: boolean }>(
            "SELECT confirmation_voids_password AS disputed FROM auth.users WHERE email = $1",
            [email],
          );
          return rows[0]?.disputed === true;
        });
      } finally {
        await client.end();
      }
    }
  },
);
