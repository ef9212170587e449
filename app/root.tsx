import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import stylesUrl from "~/styles.css?url";
import { useNonce } from "~/lib/nonce";
import { ADDRESS_MOVES } from "~/lib/address-event";

export const links: LinksFunction = () => [
  // One stylesheet: app/styles.css imports the base and every feature's styles in cascade order, and the
  // build inlines them into one file.
  { rel: "stylesheet", href: stylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export const meta: MetaFunction = () => [
  { title: "ChatCrypt" },
  { name: "description", content: "End-to-end encrypted messaging" },
  // The header's colour, for the browser's and the installed app's title bar (public/manifest.webmanifest).
  { name: "theme-color", content: "#111832" },
];

// The spec's query-form invite (`/?invite=<id>&key=<secret>`) carries the secret in the request line.
// Before any other request leaves the page, the secret moves into the fragment, which browsers never send.
const INVITE_KEY_TO_FRAGMENT =
  "(function(){try{var u=new URL(location.href),k=u.searchParams.get('key');" +
  "if(u.searchParams.has('invite')&&k){u.searchParams.delete('key');" +
  "history.replaceState(null,'',u.pathname+u.search+'#key='+encodeURIComponent(k));}}catch(e){}})();";

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: INVITE_KEY_TO_FRAGMENT + ADDRESS_MOVES }} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <main className="loading">
      <div className="auth-card">
        <h1>{title}</h1>
        <p>Please reload the page. If the problem stays, contact your administrator.</p>
        <a className="btn btn-primary" href="/">
          Back to ChatCrypt
        </a>
      </div>
    </main>
  );
}
