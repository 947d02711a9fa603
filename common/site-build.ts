// The contract between the site's build and the server that serves it.

/** Values the prerendered site cannot know at build time; the server fills them in at start. */
export const ANON_KEY_PLACEHOLDER = "__REVWISE_ANON_KEY__";
export const SITE_URL_PLACEHOLDER = "https://site-url.revwise.invalid";
/**
 * The external providers turned on (GOTRUE_EXTERNAL_<PROVIDER>_ENABLED), `sso` when SAML single
 * sign-on is (GOTRUE_SAML_ENABLED) and `oauth-apps` when the OAuth server is
 * (GOTRUE_OAUTH_SERVER_ENABLED), space-separated, on the <html> element's data-providers: CSS
 * shows the sign-in page's button (or single sign-on form) of each, before paint, and the account
 * page lists the apps the person allowed only where there can be some.
 */
export const PROVIDERS_PLACEHOLDER = "__REVWISE_PROVIDERS__";

/** The providers the sign-in page offers a button for, in its order. */
export const SIGN_IN_PROVIDERS = ["google", "azure", "github", "gitlab", "keycloak"] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];
/** The data-providers name of single sign-on (its form: a work email's domain finds the provider). */
export const SSO_SIGN_IN = "sso";
/** The data-providers name of the OAuth server (other apps use accounts with consent). */
export const OAUTH_APPS = "oauth-apps";

/** Prerendered pages the server sends with status 404 for unknown paths. */
export const NOT_FOUND_ROUTE = "/__not-found";
export const BLOG_NOT_FOUND_ROUTE = "/blog/__missing";

/** The external scheduling page behind "Book Demo" (VITE_BOOK_DEMO_URL / BOOK_DEMO_URL override it). */
export const DEFAULT_BOOK_DEMO_URL = "https://cal.com/revwise/demo";

/**
 * Pages that stand in for a dialog when the page's script is not running, and that emails and
 * ads link to: the demo (also the default DEMO_URL of the demo email) and the request-access form.
 */
export const DEMO_PAGE_ROUTE = "/product/tour";
export const REQUEST_ACCESS_ROUTE = "/request-access";

/**
 * Where every form of the site posts when its script is not running (JavaScript off, or Enter
 * pressed before the page's code loaded): the server answers with a redirect (303) to the
 * prerendered page that says so, and never reads the fields.
 */
export const FORM_FALLBACK_ACTION = "/forms/no-javascript";
export const JAVASCRIPT_REQUIRED_ROUTE = "/javascript-required";
