// A real OAuth 2.0 site on loopback standing in for GitHub or GitLab (which are not OpenID
// providers): an authorization endpoint that signs the test's person in at once and sends the
// browser back with a code, a token endpoint that checks the client, the code, its redirect_uri
// and its PKCE verifier (RFC 7636, S256) and hands out a bearer token once per code, and the
// site's user API (`/user`, `/user/emails`) answering only that token, in the site's own shapes.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type SiteUser = {
  id: number;
  login?: string;
  name?: string;
  email?: string | null;
  /** GitLab: when it confirmed the main address. */
  confirmed_at?: string | null;
  /** The user's addresses as `/user/emails` lists them. */
  emails: { email: string; verified?: boolean; primary?: boolean }[];
};

export type OAuthSite = {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who signs in next at the authorization endpoint. */
  signInAs(user: SiteUser): void;
  /** The site's env for our server: GOTRUE_EXTERNAL_<NAME>_*. */
  env(name: "GITHUB" | "GITLAB"): Record<string, string>;
  close(): Promise<void>;
};

type Grant = { user: SiteUser; redirectUri: string; challenge: string | null };

export async function startOAuthSite(style: "github" | "gitlab"): Promise<OAuthSite> {
  const clientId = `${style}-client`;
  const clientSecret = `${style}-secret-0123456789`;
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, SiteUser>();
  let next: SiteUser | undefined;
  const paths =
    style === "github"
      ? {
          authorize: "/login/oauth/authorize",
          token: "/login/oauth/access_token",
          api: "/api/v3",
        }
      : { authorize: "/oauth/authorize", token: "/oauth/token", api: "/api/v4" };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://site");
    if (url.pathname === paths.authorize) {
      const q = url.searchParams;
      if (q.get("client_id") !== clientId || !next) return send(res, 400, { error: "bad" });
      const code = crypto.randomUUID();
      codes.set(code, {
        user: next,
        redirectUri: q.get("redirect_uri")!,
        challenge: q.get("code_challenge_method") === "S256" ? q.get("code_challenge") : null,
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === paths.token && req.method === "POST") {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const pkceOk =
        grant?.challenge === null ||
        crypto.createHash("sha256").update(verifier).digest("base64url") === grant?.challenge;
      if (
        form.get("client_id") !== clientId ||
        form.get("client_secret") !== clientSecret ||
        !grant ||
        grant.redirectUri !== form.get("redirect_uri") ||
        !pkceOk
      )
        return send(res, 400, { error: "invalid_grant" });
      const token = crypto.randomBytes(16).toString("hex");
      tokens.set(token, grant.user);
      return send(res, 200, { access_token: token, token_type: "bearer", scope: "user" });
    }
    const user = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /i, ""));
    if (!user) return send(res, 401, { message: "Bad credentials" });
    if (url.pathname === `${paths.api}/user`) {
      const { emails: _emails, ...profile } = user;
      return send(res, 200, profile);
    }
    if (url.pathname === `${paths.api}/user/emails`) return send(res, 200, user.emails);
    return send(res, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    clientSecret,
    signInAs: (user) => void (next = user),
    env: (name) => ({
      [`GOTRUE_EXTERNAL_${name}_ENABLED`]: "true",
      [`GOTRUE_EXTERNAL_${name}_CLIENT_ID`]: clientId,
      [`GOTRUE_EXTERNAL_${name}_SECRET`]: clientSecret,
      [`GOTRUE_EXTERNAL_${name}_URL`]: url,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
