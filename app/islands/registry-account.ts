// Islands of the account pages (sign-in, account, an app's consent): their code loads on those pages only.
export const accountIslands = {
  "sign-in": () => import("../components/account/sign-in-panel.tsx").then((m) => m.SignInPanel),
  "email-link": () =>
    import("../components/account/email-link-confirm.tsx").then((m) => m.EmailLinkConfirm),
  "account-page": () => import("../components/account/account-page.tsx").then((m) => m.AccountPage),
  "oauth-consent": () =>
    import("../components/account/oauth-consent.tsx").then((m) => m.OAuthConsent),
};
