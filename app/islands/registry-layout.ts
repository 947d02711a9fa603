// Islands of the shared frame (header, footer) and of the forms and dialogs.
export const layoutIslands = {
  "desktop-nav": () => import("../components/layout/desktop-nav.tsx").then((m) => m.DesktopNav),
  "mobile-nav": () => import("../components/layout/mobile-nav.tsx").then((m) => m.MobileNav),
  "account-action": () =>
    import("../components/layout/account-action.tsx").then((m) => m.AccountAction),
  "newsletter-form": () => import("../forms/newsletter-form.tsx").then((m) => m.NewsletterForm),
  "request-access": () =>
    import("../forms/request-access-button.tsx").then((m) => m.RequestAccessButton),
  "watch-demo": () => import("../forms/watch-demo-button.tsx").then((m) => m.WatchDemoButton),
  "request-access-form": () =>
    import("../forms/request-access-form.tsx").then((m) => m.RequestAccessForm),
  "contact-form": () => import("../forms/contact-form.tsx").then((m) => m.ContactForm),
  "request-demo-form": () =>
    import("../forms/request-demo-form.tsx").then((m) => m.RequestDemoForm),
  "reset-password-form": () =>
    import("../forms/reset-password-form.tsx").then((m) => m.ResetPasswordForm),
};
