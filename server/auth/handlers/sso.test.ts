// SAML 2.0 single sign-on through the real supabase-js client, with a real identity provider on
// loopback (samlify signing its own responses): the admin SSO API (GoTrue's answers), a sign-in
// by email domain or provider id in the implicit and PKCE flows, whose account it is (the
// provider's own, never an account found by its address), and the attacks on the assertion
// consumer, each refused with GoTrue's answer: unsigned, wrongly signed, wrapped, replayed, for
// another audience or recipient, expired, answering a request we never made.
import crypto from "node:crypto";
import { DOMParser, XMLSerializer, type Element } from "@xmldom/xmldom";
import { afterAll, beforeAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { PASSWORD } from "../../../tests/support/auth.ts";
import {
  postAnswer,
  samlPrivateKeyEnv,
  startSamlIdp,
  type ResponseOverrides,
  type SamlAnswer,
  type SamlPerson,
  type TestSamlIdp,
} from "../../../tests/support/saml-idp.ts";

const SAML = "urn:oasis:names:tc:SAML:2.0:assertion";
const EMAIL_ATTRIBUTE = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress";

let n = 0;

describeAuthSuiteEachDatabase(
  "auth: SAML 2.0 single sign-on",
  ({ server, client, auth, count }) => {
    const domain = `acme-${crypto.randomUUID().slice(0, 8)}.example`;
    let idp: TestSamlIdp;
    let providerId = "";
    const back = () => `${server.url}/account`;
    const admin = (path: string, init: RequestInit = {}) =>
      auth(path, {
        ...init,
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
        },
      });
    const json = async (res: Response) => ({
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
    });

    /** A SAML IdP on loopback that asks our server for our metadata. */
    const startIdpOfOurs = () =>
      startSamlIdp(async () => (await fetch(`${server.url}/auth/v1/sso/saml/metadata`)).text());
    /** POST /admin/sso/providers of a SAML provider, its answer. */
    const createProvider = (body: Record<string, unknown>) =>
      admin("/admin/sso/providers", {
        method: "POST",
        body: JSON.stringify({ type: "saml", ...body }),
      }).then(json);

    beforeAll(async () => {
      idp = await startIdpOfOurs();
      const created = await createProvider({
        metadata_xml: idp.metadataXml,
        domains: [domain],
        attribute_mapping: {
          keys: { email: { name: EMAIL_ATTRIBUTE }, name: { names: ["displayName", "cn"] } },
        },
      });
      expect(created.status).toBe(201);
      providerId = created.body.id as string;
    });
    afterAll(() => idp?.close());

    /** A person at the company's provider, with an address at its domain. */
    function person(label: string, email = `${label}-${++n}@${domain}`): SamlPerson {
      return {
        nameId: `emp-${crypto.randomUUID()}`,
        attributes: { [EMAIL_ATTRIBUTE]: [email], displayName: [`Dana ${label}`] },
      };
    }

    /** POST /sso as supabase-js sends it: the provider's URL with our signed request. */
    async function start(pkce = false) {
      const supabase = server.client({ ip: uniqueIp(), pkce });
      const { data, error } = await supabase.auth.signInWithSSO({
        domain,
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      return { supabase, url: data!.url };
    }

    /** The browser's post of the provider's answer to our ACS: where it is sent next. */
    async function post(answer: Pick<SamlAnswer, "acs" | "SAMLResponse" | "RelayState">) {
      const res = await postAnswer(answer, uniqueIp());
      return { status: res.status, location: new URL(res.headers.get("location")!) };
    }

    async function signIn(who: SamlPerson, opts: Parameters<TestSamlIdp["answer"]>[2] = {}) {
      const { url } = await start();
      return post(await idp.answer(url, who, opts));
    }

    /** The refusal GoTrue's SamlAcs answers: SITE_URL with the error in the query (303). */
    function expectRefused(
      landed: { status: number; location: URL },
      code = "validation_failed",
      description = "SAML Assertion is not valid",
    ) {
      expect(landed.status).toBe(303);
      expect(landed.location.origin + landed.location.pathname).toBe(`${server.url}/`);
      expect(landed.location.searchParams.get("error_code")).toBe(code);
      expect(landed.location.searchParams.get("error_description")).toBe(description);
      expect(landed.location.hash).toBe("");
    }

    async function sessionFrom(location: URL) {
      const f = new URLSearchParams(location.hash.slice(1));
      const supabase = client();
      const { data, error } = await supabase.auth.setSession({
        access_token: f.get("access_token")!,
        refresh_token: f.get("refresh_token")!,
      });
      expect(error).toBeNull();
      return data.session!;
    }

    it("says SAML is on and serves its service provider's metadata", async () => {
      const settings = (await (await auth("/settings")).json()) as { saml_enabled: boolean };
      expect(settings.saml_enabled).toBe(true);
      const res = await fetch(`${server.url}/auth/v1/sso/saml/metadata?download=true`);
      expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="metadata.xml"');
      const doc = new DOMParser().parseFromString(await res.text(), "text/xml");
      const root = doc.documentElement!;
      expect(root.getAttribute("entityID")).toBe(`${server.url}/auth/v1/sso/saml/metadata`);
      expect(new Date(root.getAttribute("validUntil")!).getUTCFullYear()).toBe(
        new Date().getUTCFullYear() + 5,
      );
      const acs = doc.getElementsByTagName("AssertionConsumerService")[0]!;
      expect(acs.getAttribute("Location")).toBe(`${server.url}/auth/v1/sso/saml/acs`);
      expect(acs.getAttribute("Binding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
      expect(doc.getElementsByTagName("ds:X509Certificate")[0]!.textContent).toMatch(
        /^[A-Za-z0-9+/=\s]{500,}$/,
      );
      // The same certificate on every request (GoTrue's fixed template, a deterministic signature).
      const again = await (await fetch(`${server.url}/auth/v1/sso/saml/metadata`)).text();
      expect(again).toContain(doc.getElementsByTagName("ds:X509Certificate")[0]!.textContent!);
    });

    it("signs a person in by their email's domain (implicit flow), on a new account of the provider's", async () => {
      const who = person("implicit");
      const email = who.attributes![EMAIL_ATTRIBUTE]![0]!;
      const { url } = await start();
      const to = new URL(url);
      expect(to.origin + to.pathname).toBe(idp.metadataUrl.replace("/metadata", "/sso"));
      expect(to.searchParams.get("RelayState")).toMatch(/^[0-9a-f-]{36}$/);
      expect(to.searchParams.get("SigAlg")).toBe(
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      );
      expect(to.searchParams.get("Signature")).toBeTruthy();
      const landed = await post(await idp.answer(url, who));
      expect(landed.status).toBe(302);
      expect(landed.location.origin + landed.location.pathname).toBe(back());
      const session = await sessionFrom(landed.location);
      expect(session.user.email).toBe(email);
      expect(session.user.email_confirmed_at).toBeTruthy();
      expect(session.user.app_metadata.provider).toBe(`sso:${providerId}`);
      expect(session.user.user_metadata.name).toBe("Dana implicit");
      expect(session.user.identities).toEqual([
        expect.objectContaining({ provider: `sso:${providerId}`, id: who.nameId, email }),
      ]);
      // The session says how it was signed in.
      const payload = JSON.parse(
        Buffer.from(session.access_token.split(".")[1]!, "base64url").toString(),
      ) as { amr: { method: string }[] };
      expect(payload.amr[0]!.method).toBe("sso/saml");
      // The same person again: the same account.
      const again = await sessionFrom((await signIn(who)).location);
      expect(again.user.id).toBe(session.user.id);
    });

    it("signs in with the PKCE flow: a code, exchanged by the client for the session", async () => {
      const who = person("pkce");
      const { supabase, url } = await start(true);
      const landed = await post(await idp.answer(url, who));
      expect(landed.status).toBe(302);
      const code = landed.location.searchParams.get("code")!;
      expect(code).toMatch(/^[0-9a-f-]{36}$/);
      expect(landed.location.hash).toBe("");
      const { data, error } = await supabase.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.session!.user.email).toBe(who.attributes![EMAIL_ATTRIBUTE]![0]);
    });

    it("signs in by provider id, with the response signed instead of the assertion", async () => {
      const supabase = client();
      const { data, error } = await supabase.auth.signInWithSSO({
        providerId,
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      const who = person("signed-response");
      const landed = await post(await idp.answer(data!.url, who, { sign: "response" }));
      expect(landed.status).toBe(302);
      expect((await sessionFrom(landed.location)).user.email).toBe(
        who.attributes![EMAIL_ATTRIBUTE]![0],
      );
    });

    it("never takes over an account by its address: the provider's person gets an account of their own", async () => {
      const email = `owner-${++n}@${domain}`;
      const created = await json(
        await admin("/admin/users", {
          method: "POST",
          body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
        }),
      );
      expect(created.status).toBe(200);
      const session = await sessionFrom((await signIn(person("owner", email))).location);
      expect(session.user.id).not.toBe(created.body.id);
      expect(session.user.email).toBe(email);
      // The owner's password account is untouched and still the one the address signs in to.
      const { data, error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      expect(data.user!.id).toBe(created.body.id);
      expect(data.user!.identities!.map((i) => i.provider)).toEqual(["email"]);
      // The single sign-on's account changes its address or password only at the company.
      const sso = client();
      await sso.auth.setSession({
        access_token: session.access_token,
        refresh_token: session.refresh_token,
      });
      const change = await sso.auth.updateUser({ password: "Another-Horse-43" });
      expect(change.error?.code).toBe("user_sso_managed");
    });

    it("answers POST /sso as GoTrue does when the provider cannot be found or is off", async () => {
      const sso = (body: Record<string, unknown>) =>
        auth("/sso", { method: "POST", body: JSON.stringify(body) }).then(json);
      expect(await sso({ domain, provider_id: providerId })).toMatchObject({
        status: 400,
        body: {
          error_code: "validation_failed",
          msg: "Only one of provider_id or domain supported",
        },
      });
      expect(await sso({})).toMatchObject({
        status: 400,
        body: {
          error_code: "validation_failed",
          msg: "A provider_id or domain needs to be provided",
        },
      });
      expect(await sso({ domain: "nobody.example" })).toMatchObject({
        status: 404,
        body: {
          error_code: "sso_provider_not_found",
          msg: "No SSO provider assigned for this domain",
        },
      });
      expect(await sso({ provider_id: crypto.randomUUID() })).toMatchObject({
        status: 404,
        body: { error_code: "sso_provider_not_found", msg: "No such SSO provider" },
      });
      // Without skip_http_redirect, the browser is sent to the provider at once.
      const redirected = await auth("/sso", {
        method: "POST",
        body: JSON.stringify({ domain }),
        redirect: "manual",
      });
      expect(redirected.status).toBe(303);
      expect(redirected.headers.get("location")).toMatch(/SAMLRequest=/);
    });

    it("starts from the sign-in page's form by a work email, and comes back to that page", async () => {
      const page = `${server.url}/auth?next=%2Faccount`;
      const form = (email: string) =>
        fetch(`${server.url}/auth/v1/sso/email`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            referer: page,
            "x-forwarded-for": uniqueIp(),
          },
          body: new URLSearchParams({ email }).toString(),
          redirect: "manual",
        });
      const who = person("form");
      const started = await form(` ${who.attributes![EMAIL_ATTRIBUTE]![0]!.toUpperCase()} `);
      expect(started.status).toBe(200);
      // A page that moves on to the provider by itself (a form may not be redirected elsewhere).
      const html = await started.text();
      const to = /http-equiv="refresh" content="0;url=([^"]+)"/
        .exec(html)![1]!
        .replace(/&amp;/g, "&");
      expect(html).toContain(`<a href="${to.replace(/&/g, "&amp;")}">`);
      const landed = await post(await idp.answer(to, who));
      expect(landed.status).toBe(302);
      expect(landed.location.origin + landed.location.pathname + landed.location.search).toBe(page);
      expect((await sessionFrom(landed.location)).user.email).toBe(
        who.attributes![EMAIL_ATTRIBUTE]![0],
      );
      // An address whose domain has no provider: back to the page, saying so.
      const refused = await form("someone@nobody.example");
      expect(refused.status).toBe(303);
      const back = new URL(refused.headers.get("location")!);
      expect(back.origin + back.pathname).toBe(`${server.url}/auth`);
      expect(back.searchParams.get("next")).toBe("/account");
      expect(new URLSearchParams(back.hash.slice(1)).get("error_code")).toBe(
        "sso_provider_not_found",
      );
    });

    it("refuses an unsigned response", async () => {
      const { url } = await start();
      const answer = await idp.answer(url, person("unsigned"));
      expectRefused(
        await post({ ...answer, SAMLResponse: withoutSignatures(answer.SAMLResponse) }),
      );
    });

    it("refuses a response signed with a key the provider never published", async () => {
      expectRefused(await signIn(person("foreign"), { foreignKey: true }));
      expectRefused(
        await signIn(person("foreign-response"), { foreignKey: true, sign: "response" }),
      );
    });

    it("refuses a wrapped signature: a forged assertion beside the signed one", async () => {
      const victim = person("victim");
      const victimSession = await sessionFrom((await signIn(victim)).location);
      const { url } = await start();
      const answer = await idp.answer(url, person("attacker"));
      const landed = await post({
        ...answer,
        SAMLResponse: wrapped(answer.SAMLResponse, victim.nameId),
      });
      expectRefused(landed);
      expect(victimSession.user.id).toBeTruthy();
    });

    it("refuses a replayed response, with this request's RelayState or another's", async () => {
      const { url } = await start();
      const answer = await idp.answer(url, person("replayed"));
      expect((await post(answer)).status).toBe(302);
      expectRefused(
        await post(answer),
        "saml_relay_state_not_found",
        "SAML RelayState does not exist, try logging in again?",
      );
      const fresh = new URL((await start()).url).searchParams.get("RelayState")!;
      expectRefused(await post({ ...answer, RelayState: fresh }));
    });

    it("lets one of two posts of one answer at the same moment through (one atomic claim)", async () => {
      const who = person("raced");
      const { url } = await start();
      const answer = await idp.answer(url, who);
      const landed = await Promise.all([post(answer), post(answer)]);
      expect(landed.map((l) => l.status).sort()).toEqual([302, 303]);
      expectRefused(
        landed.find((l) => l.status === 303)!,
        "saml_relay_state_not_found",
        "SAML RelayState does not exist, try logging in again?",
      );
      expect(
        await count(
          "SELECT count(*)::int AS n FROM auth.identities WHERE provider = $1 AND provider_id = $2",
          [`sso:${providerId}`, who.nameId],
        ),
      ).toBe(1);
    });

    it("refuses an assertion for another audience, recipient or destination", async () => {
      const cases: ResponseOverrides[] = [
        { Audience: "https://other-sp.example/saml/metadata" },
        { SubjectRecipient: "https://other-sp.example/saml/acs" },
        { Destination: "https://other-sp.example/saml/acs" },
      ];
      for (const overrides of cases)
        expectRefused(await signIn(person("elsewhere"), { overrides }));
    });

    it("refuses an expired assertion, and one not yet valid", async () => {
      const past = (ms: number) => new Date(Date.now() - ms).toISOString();
      const expired = await signIn(person("expired"), {
        overrides: {
          IssueInstant: past(20 * 60_000),
          ConditionsNotBefore: past(20 * 60_000),
          ConditionsNotOnOrAfter: past(10 * 60_000),
          SubjectConfirmationDataNotOnOrAfter: past(10 * 60_000),
        },
      });
      expectRefused(expired);
      const future = new Date(Date.now() + 30 * 60_000).toISOString();
      expectRefused(await signIn(person("early"), { overrides: { ConditionsNotBefore: future } }));
    });

    it("refuses a response to a request we never made", async () => {
      expectRefused(await signIn(person("unknown"), { overrides: { InResponseTo: "_unknown" } }));
      expectRefused(
        await signIn(person("unknown-subject"), { overrides: { SubjectInResponseTo: "_unknown" } }),
      );
      // An unsolicited response (the provider's own start, no RelayState of ours).
      const { url } = await start();
      const answer = await idp.answer(url, person("unsolicited"));
      expectRefused(await post({ ...answer, RelayState: "" }));
      expectRefused(
        await post({ ...answer, RelayState: "not-a-uuid" }),
        "validation_failed",
        "SAML RelayState is not a valid UUID or URL",
      );
    });

    it("refuses a response after the RelayState's validity, and keeps no account of a refusal", async () => {
      const before = await count("SELECT count(*)::int AS n FROM auth.users", []);
      const { url } = await start();
      const answer = await idp.answer(url, person("late"));
      await ctxQuery(
        "UPDATE auth.flow_states SET created_at = now() - interval '3 minutes' WHERE id = $1",
        [answer.RelayState],
      );
      expectRefused(
        await post(answer),
        "saml_relay_state_expired",
        "SAML RelayState has expired. Try logging in again?",
      );
      expect(await count("SELECT count(*)::int AS n FROM auth.users", [])).toBe(before);
    });

    it("fetches a provider's metadata anew from its URL once it is a day old", async () => {
      const fresh = await startIdpOfOurs();
      try {
        const freshDomain = `fresh-${crypto.randomUUID().slice(0, 8)}.example`;
        const made = await createProvider({
          metadata_url: fresh.metadataUrl,
          domains: [freshDomain],
        });
        expect(made.status).toBe(201);
        const id = made.body.id as string;
        await ctxQuery(
          "UPDATE auth.saml_providers SET updated_at = now() - interval '2 days' WHERE sso_provider_id = $1",
          [id],
        );
        const { data } = await client().auth.signInWithSSO({
          domain: freshDomain,
          options: { redirectTo: back(), skipBrowserRedirect: true },
        });
        const who = person("fresh", `fresh-${++n}@${freshDomain}`);
        expect((await post(await fresh.answer(data!.url, who))).status).toBe(302);
        expect(
          await count(
            "SELECT count(*)::int AS n FROM auth.saml_providers WHERE sso_provider_id = $1 AND updated_at > now() - interval '1 minute'",
            [id],
          ),
        ).toBe(1);
      } finally {
        await fresh.close();
      }
    });

    async function ctxQuery(sql: string, params: unknown[]) {
      await count(`WITH u AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM u`, params);
    }

    it("manages providers with GoTrue's admin SSO API and answers", async () => {
      const other = await startSamlIdp(async () => "");
      try {
        const otherDomain = `other-${crypto.randomUUID().slice(0, 8)}.example`;
        const create = createProvider;
        expect(await create({ type: "oidc", metadata_xml: other.metadataXml })).toMatchObject({
          status: 400,
          body: {
            error_code: "validation_failed",
            msg: "Only 'saml' supported for SSO provider type",
          },
        });
        expect(await create({ type: "saml" })).toMatchObject({
          status: 400,
          body: { msg: "Either metadata_xml or metadata_url must be set" },
        });
        expect(
          await create({ type: "saml", metadata_xml: "x", metadata_url: other.metadataUrl }),
        ).toMatchObject({
          status: 400,
          body: { msg: "Only one of metadata_xml or metadata_url needs to be set" },
        });
        expect(
          await create({ type: "saml", metadata_url: "http://idp.example.com/metadata" }),
        ).toMatchObject({ status: 400, body: { msg: "metadata_url is not a HTTPS URL" } });
        expect(
          await create({ type: "saml", metadata_xml: other.metadataXml, name_id_format: "x" }),
        ).toMatchObject({ status: 400, body: { error_code: "validation_failed" } });
        expect(await create({ type: "saml", metadata_xml: "<not-metadata/>" })).toMatchObject({
          status: 400,
          body: { error_code: "validation_failed" },
        });
        expect(await create({ type: "saml", metadata_xml: idp.metadataXml })).toMatchObject({
          status: 422,
          body: {
            error_code: "saml_idp_already_exists",
            msg: `SAML Identity Provider with this EntityID (${idp.entityId}) already exists`,
          },
        });
        expect(
          await create({ type: "saml", metadata_xml: other.metadataXml, domains: [domain] }),
        ).toMatchObject({
          status: 400,
          body: {
            error_code: "sso_domain_already_exists",
            msg: `SSO Domain '${domain}' is already assigned to an SSO identity provider (${providerId})`,
          },
        });
        // From its metadata URL (a provider on loopback may be plain HTTP).
        const made = await create({
          type: "saml",
          metadata_url: other.metadataUrl,
          domains: [otherDomain],
          resource_id: `acme-${otherDomain}`,
          name_id_format: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        });
        expect(made).toMatchObject({
          status: 201,
          body: {
            resource_id: `acme-${otherDomain}`,
            disabled: null,
            saml: {
              entity_id: other.entityId,
              metadata_xml: other.metadataXml,
              metadata_url: other.metadataUrl,
              attribute_mapping: {},
              name_id_format: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
            },
            domains: [{ domain: otherDomain }],
          },
        });
        const id = made.body.id as string;
        // Listed without its metadata XML; found by id and by resource id.
        const list = await json(await admin("/admin/sso/providers"));
        const listed = (list.body.items as { id: string; saml: Record<string, unknown> }[]).find(
          (p) => p.id === id,
        )!;
        expect(listed.saml.metadata_xml).toBeUndefined();
        expect((await json(await admin(`/admin/sso/providers/${id}`))).body.id).toBe(id);
        expect(
          (await json(await admin(`/admin/sso/providers/resource_acme-${otherDomain}`))).body.id,
        ).toBe(id);
        expect(await json(await admin("/admin/sso/providers/not-an-id"))).toMatchObject({
          status: 404,
          body: { error_code: "sso_provider_not_found", msg: "SSO Identity Provider not found" },
        });
        // Updated: domains replaced, attribute mapping set, turned off; another entity refused.
        const update = (body: Record<string, unknown>) =>
          admin(`/admin/sso/providers/${id}`, { method: "PUT", body: JSON.stringify(body) }).then(
            json,
          );
        expect(await update({ metadata_xml: idp.metadataXml })).toMatchObject({
          status: 400,
          body: { error_code: "saml_entity_id_mismatch" },
        });
        expect(await update({ domains: [domain] })).toMatchObject({
          status: 400,
          body: { error_code: "sso_domain_already_exists" },
        });
        const updated = await update({
          domains: [`sub.${otherDomain}`],
          attribute_mapping: { keys: { email: { name: "mail" } } },
          disabled: true,
        });
        expect(updated).toMatchObject({
          status: 200,
          body: {
            disabled: true,
            domains: [{ domain: `sub.${otherDomain}` }],
            saml: { attribute_mapping: { keys: { email: { name: "mail" } } } },
          },
        });
        // Turned off: no sign-in starts with it.
        expect(
          await json(
            await auth("/sso", {
              method: "POST",
              body: JSON.stringify({ domain: `sub.${otherDomain}` }),
            }),
          ),
        ).toMatchObject({
          status: 404,
          body: { error_code: "sso_provider_disabled", msg: "SSO Provider is currently disabled" },
        });
        // Deleted, with its domains.
        expect((await admin(`/admin/sso/providers/${id}`, { method: "DELETE" })).status).toBe(200);
        expect((await admin(`/admin/sso/providers/${id}`)).status).toBe(404);
        expect(
          await count(
            "SELECT count(*)::int AS n FROM auth.sso_domains WHERE sso_provider_id = $1",
            [id],
          ),
        ).toBe(0);
        // Only the service role may.
        expect((await auth("/admin/sso/providers")).status).toBe(401);
      } finally {
        await other.close();
      }
    });
  },
  { GOTRUE_SAML_ENABLED: "true", GOTRUE_SAML_PRIVATE_KEY: samlPrivateKeyEnv() },
);

/** The response with every signature taken out (it still names our request). */
function withoutSignatures(samlResponse: string): string {
  const doc = parse(samlResponse);
  for (const signature of [
    ...doc.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature"),
  ])
    signature.parentNode!.removeChild(signature);
  return serialize(doc);
}

/**
 * Signature wrapping: the signed assertion moved into the response's Extensions, a copy naming
 * another person (unsigned, its own id) put where the assertion was.
 */
function wrapped(samlResponse: string, otherNameId: string): string {
  const doc = parse(samlResponse);
  const response = doc.documentElement!;
  const signed = doc.getElementsByTagNameNS(SAML, "Assertion")[0]!;
  const forged = signed.cloneNode(true) as Element;
  forged.setAttribute("ID", `_forged-${crypto.randomUUID()}`);
  for (const sig of [
    ...forged.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature"),
  ])
    sig.parentNode!.removeChild(sig);
  forged.getElementsByTagNameNS(SAML, "NameID")[0]!.textContent = otherNameId;
  const extensions = doc.createElementNS(
    "urn:oasis:names:tc:SAML:2.0:protocol",
    "samlp:Extensions",
  );
  response.replaceChild(forged, signed);
  extensions.appendChild(signed);
  response.insertBefore(
    extensions,
    response.getElementsByTagNameNS(SAML, "Issuer")[0]!.nextSibling,
  );
  return serialize(doc);
}

const parse = (samlResponse: string) =>
  new DOMParser().parseFromString(Buffer.from(samlResponse, "base64").toString("utf8"), "text/xml");
const serialize = (doc: ReturnType<typeof parse>) =>
  Buffer.from(new XMLSerializer().serializeToString(doc)).toString("base64");
