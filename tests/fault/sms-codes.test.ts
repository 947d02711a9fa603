// Two instances of the built server on one PostgreSQL, each handed the same
// POST /auth/v1/otp {phone} at the same moment (as a balancer would): the number is texted one code,
// not two, and the code it got is the one that works. The minute of a code is claimed in the database.
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { uniquePhone } from "../support/auth.ts";
import { postgresAvailable } from "../support/postgres.ts";
import { NO_CLIENT_LIMITS, useRacingInstances } from "../support/racing-instances.ts";
import type { RunningServer } from "../support/server-process.ts";

const ROUNDS = 6;

describe.skipIf(!(await postgresAvailable()))("text messages from two instances", () => {
  const instances = useRacingInstances({
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    ...NO_CLIENT_LIMITS,
  });
  const { racing } = instances;

  it("texts one code per number for the same /otp sent to both at once, and that code signs in", async () => {
    const { admin, hook, verifier } = instances;
    // The hook takes a moment, as a real SMS provider does: the two requests overlap.
    hook.answer(() => ({ status: 204, delayMs: 150 }));
    const otpAt = (server: RunningServer, phone: string) =>
      fetch(`${server.url}/auth/v1/otp`, {
        method: "POST",
        headers: { apikey: verifier.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ phone }),
      });

    // Each round: a number with an account (created without a text, so its minute is free) and a
    // number without one, each asked for by both instances at the same moment.
    const numbers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const known = uniquePhone();
      const created = await admin.auth.admin.createUser({ phone: known, phone_confirm: true });
      expect(created.error).toBeNull();
      const fresh = uniquePhone();
      numbers.push(known, fresh);
      const answers = await Promise.all(
        [known, fresh].flatMap((phone) => racing.map((server) => otpAt(server, phone))),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      await Promise.all(numbers.slice(-2).map((phone) => hook.waitFor(phone)));
    }

    // A stopped instance has finished the work its answers started (the texts): all are counted.
    for (const server of racing) expect(await server.stop("SIGTERM")).toBe(0);
    const textsTo = (phone: string) => hook.messages.filter((m) => m.sms.phone === phone);
    expect(numbers.map((phone) => [phone, textsTo(phone).length])).toEqual(
      numbers.map((phone) => [phone, 1]),
    );
    for (const phone of numbers) {
      const { otp } = textsTo(phone)[0]!.sms;
      const client = createClient(verifier.url, verifier.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      const { data, error } = await client.auth.verifyOtp({ phone, token: otp, type: "sms" });
      expect(error).toBeNull();
      expect(data.session?.user.phone).toBe(phone);
    }
  });
});
