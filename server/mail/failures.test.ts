// How a failed send is read: the cases a loopback SMTP peer does not easily produce (the others,
// a refused connection, 550 and 451 to RCPT TO, run for real in delivery.test.ts).
import { describe, expect, it } from "vitest";
import { classifyFailure } from "./failures.ts";

const smtpError = (code: string, responseCode?: number, command?: string) =>
  Object.assign(new Error("x"), { code, responseCode, command });

describe("classifyFailure", () => {
  it("blames the peer for whatever ends or refuses the session, not one message", () => {
    expect(classifyFailure(smtpError("ECONNECTION", 421, "CONN"))).toBe("peer");
    expect(classifyFailure(smtpError("EENVELOPE", 421, "RCPT TO"))).toBe("peer");
    expect(classifyFailure(smtpError("EENVELOPE", 553, "MAIL FROM"))).toBe("peer");
    expect(classifyFailure(smtpError("EAUTH", 535, "AUTH PLAIN"))).toBe("peer");
    expect(classifyFailure(smtpError("ETIMEDOUT"))).toBe("peer");
    expect(classifyFailure(smtpError("EABORT"))).toBe("peer");
    expect(classifyFailure(new Error("no code"))).toBe("peer");
    expect(classifyFailure(undefined)).toBe("peer");
  });

  it("fails a message refused for good, defers one refused for now", () => {
    expect(classifyFailure(smtpError("EMESSAGE", 552, "DATA"))).toBe("rejected");
    expect(classifyFailure(smtpError("EMESSAGE", undefined, "MAIL FROM"))).toBe("rejected");
    expect(classifyFailure(smtpError("EENVELOPE", undefined, "API"))).toBe("rejected");
    expect(classifyFailure(smtpError("EENVELOPE", 503, "RCPT TO"))).toBe("deferred");
    expect(classifyFailure(smtpError("EMESSAGE", 452, "DATA"))).toBe("deferred");
  });
});
