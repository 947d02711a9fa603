import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { Logo } from "../../components/layout/logo.tsx";

/**
 * The account pages' frame: a centered card with the page's h1 and subtitle over its content.
 * With `signedIn`, someone signed in sees that heading instead, from the first paint: which one
 * shows is decided by the <html> element's data-account, as the header's account button is
 * (lib/account-signals.ts), so the sign-in page never asks someone signed in to sign in.
 */
export function AuthFrame({
  title,
  subtitle,
  signedIn,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  signedIn?: { title: string; subtitle: string };
  children: React.ReactNode;
  footer?: React.ReactNode;
}) {
  const signedOutOnly = signedIn ? "in-data-[account=signed-in]:hidden" : undefined;
  return (
    <section className="relative isolate overflow-hidden bg-gradient-to-b from-indigo-50/80 via-white to-white">
      <div
        aria-hidden="true"
        className="absolute -top-32 left-1/2 -z-10 size-[36rem] -translate-x-1/2 rounded-full bg-radial from-indigo-200/40 to-transparent to-70%"
      />
      <div
        aria-hidden="true"
        className="absolute top-40 -right-24 -z-10 size-72 rounded-full bg-radial from-teal-200/30 to-transparent to-70%"
      />
      <Container className="flex flex-col items-center py-10 sm:min-h-[calc(100vh-4rem)] sm:justify-center sm:py-20">
        <div className="w-full max-w-md">
          <div className="rounded-2xl border border-border bg-white p-6 shadow-xl shadow-indigo-950/5 sm:p-10">
            <div className="flex justify-center" aria-hidden="true">
              <Logo />
            </div>
            <div className={signedOutOnly}>
              <h1 className={HEADING}>{title}</h1>
              <p className="mt-2 text-center text-slate-700">{subtitle}</p>
            </div>
            {signedIn && (
              <div className="hidden in-data-[account=signed-in]:block">
                <h1 className={HEADING}>{signedIn.title}</h1>
                <p className="mt-2 text-center text-slate-700">{signedIn.subtitle}</p>
              </div>
            )}
            <div className="mt-8">{children}</div>
          </div>
          {footer && (
            <div className="mt-6 text-center text-sm leading-6 text-slate-700">{footer}</div>
          )}
        </div>
      </Container>
    </section>
  );
}

const HEADING = "mt-6 text-center text-2xl font-bold tracking-tight text-ink sm:text-3xl";
