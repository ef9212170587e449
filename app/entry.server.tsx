import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "~/lib/nonce";
import { createNonce, securityHeaders } from "~/server/security-headers.server";
import { callConnectSources } from "~/features/calls/csp.server";

// The live stream and message sending, for server.mjs to answer before Express's other middleware and Remix.
export { handleFastRoutes, isFastRoute } from "~/fast-routes.server";
export { answerRouteErrors } from "~/server/route-errors.server";

const ABORT_DELAY_MS = 5_000;

/**
 * What Remix reports of a request goes to the log: an address no page has (404) or another answer of
 * the client's doing in one line, without the stack trace each wrote before (anyone could fill the log
 * with them); a failure of the server with its stack; nothing for a request its client gave up on.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  if (isRouteErrorResponse(error) && error.status < 500) {
    console.warn(`${error.status} ${inner instanceof Error ? inner.message : error.statusText}`);
    return;
  }
  console.error(inner || error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  for (const [name, value] of Object.entries(securityHeaders(nonce, process.env.NODE_ENV === "development", callConnectSources()))) {
    responseHeaders.set(name, value);
  }
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}
