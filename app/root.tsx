import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import stylesUrl from "~/styles.css?url";
import responsiveStylesUrl from "~/features/workspace/responsive.css?url";
import searchStylesUrl from "~/features/search/search.css?url";
import pinsStylesUrl from "~/features/pins/pins.css?url";
import sealedStylesUrl from "~/features/sealed/sealed.css?url";
import directStylesUrl from "~/features/direct/direct.css?url";
import markdownStylesUrl from "~/features/markdown/markdown.css?url";
import pinnedStylesUrl from "~/features/pinned/pinned.css?url";
import typingStylesUrl from "~/features/typing/typing.css?url";
import threadsStylesUrl from "~/features/threads/threads.css?url";
import notifyRulesStylesUrl from "~/features/notify-rules/notify-rules.css?url";
import recoveryStylesUrl from "~/features/recovery/recovery.css?url";
import callsStylesUrl from "~/features/calls/calls.css?url";
import a11yStylesUrl from "~/ui/a11y.css?url";
import { useNonce } from "~/lib/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesUrl },
  { rel: "stylesheet", href: responsiveStylesUrl },
  { rel: "stylesheet", href: searchStylesUrl },
  { rel: "stylesheet", href: pinsStylesUrl },
  { rel: "stylesheet", href: sealedStylesUrl },
  { rel: "stylesheet", href: directStylesUrl },
  { rel: "stylesheet", href: markdownStylesUrl },
  { rel: "stylesheet", href: pinnedStylesUrl },
  { rel: "stylesheet", href: typingStylesUrl },
  { rel: "stylesheet", href: threadsStylesUrl },
  { rel: "stylesheet", href: notifyRulesStylesUrl },
  { rel: "stylesheet", href: recoveryStylesUrl },
  { rel: "stylesheet", href: callsStylesUrl },
  { rel: "stylesheet", href: a11yStylesUrl },
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
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: INVITE_KEY_TO_FRAGMENT }} />
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
