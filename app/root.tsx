import { isRouteErrorResponse, Links, Meta, Outlet, Scripts } from "react-router";
import { ANON_KEY_PLACEHOLDER, PROVIDERS_PLACEHOLDER } from "../common/site-build.ts";
import stylesheet from "./app.css?url";
import { IslandScripts } from "./islands/island.tsx";
import type { Route } from "./+types/root";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "alternate", type: "application/rss+xml", title: "Revwise blog", href: "/blog/rss.xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    // data-providers: the sign-in providers that are on, filled in by the server (sign-in page).
    <html lang="en" data-providers={PROVIDERS_PLACEHOLDER}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4338ca" />
        <meta
          name="revwise-anon-key"
          content={import.meta.env.VITE_ANON_KEY ?? ANON_KEY_PLACEHOLDER}
          suppressHydrationWarning
        />
        <Meta />
        <Links />
        <IslandScripts />
      </head>
      <body>{children}</body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * Rendered only into the build's SPA fallback file, which the server never sends (every page is
 * prerendered and unknown paths get the 404 page). React Router's build requires <Scripts/> there.
 */
export function HydrateFallback() {
  return <Scripts />;
}

/** When rendering fails the application shows plain text: "Error loading application". */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (import.meta.env.DEV && !isRouteErrorResponse(error)) console.error(error);
  return (
    <>
      <title>Error loading application · Revwise</title>
      <p style={{ padding: "2rem", fontFamily: "system-ui, sans-serif" }}>
        Error loading application
      </p>
    </>
  );
}
