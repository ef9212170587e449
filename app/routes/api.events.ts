import type { LoaderFunctionArgs } from "@remix-run/node";
import { checkLiveRequest, LIVE_HEADERS, runLiveStream } from "~/features/live/stream.server";

/**
 * Live updates for the page as server-sent events, from this process's relay hub
 * (app/features/live/relay.server.ts). The production server (server.mjs) answers /api/events
 * before Remix (app/fast-routes.server.ts); this route serves the same stream under any other
 * server. Each stream starts with "sync", and the page then fetches whatever it may have missed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const opened = await checkLiveRequest(request.headers.get("Cookie"), request.url, context);
  let detach = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      detach = runLiveStream(opened, {
        write: (frame) => controller.enqueue(frame),
        close: () => {
          try {
            controller.close();
          } catch {
            // already closed by the reader
          }
        },
      });
      request.signal.addEventListener("abort", () => detach());
    },
    cancel: () => detach(),
  });
  return new Response(body, { headers: LIVE_HEADERS });
}
