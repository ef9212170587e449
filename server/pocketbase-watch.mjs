// Knows whether PocketBase answers, so that while it is away (crashed and being restarted, or still
// starting) every page and API call gets one clear 503 instead of a different failure per route.
import { sendError } from "./guards.mjs";

const DOWN_INTERVAL_MS = 200;
const PROBE_TIMEOUT_MS = 1_500;

export const UNAVAILABLE_MESSAGE = "The server is starting up or restarting. Please try again in a moment.";

export function watchPocketBase(pbUrl) {
  const health = new URL("/api/health", pbUrl);
  let up = true;
  let timer;
  let probing = false;
  let stopped = false;

  const probe = async () => {
    if (probing || stopped) return;
    probing = true;
    let ok = false;
    try {
      const response = await fetch(health, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.arrayBuffer();
      ok = response.ok;
    } catch {
      ok = false;
    }
    probing = false;
    if (ok !== up) console.log(ok ? "PocketBase answers again." : "PocketBase does not answer; API requests get 503 until it is back.");
    up = ok;
    schedule();
  };

  // While PocketBase answers, only a failed call triggers a probe: polling its health endpoint every
  // second filled its request log with a line a second, and PocketBase then kept no request log at all
  // (the forwarded client address and the invite-key checks read that log). While it is away, probe
  // often until it is back.
  const schedule = () => {
    clearTimeout(timer);
    if (stopped || up) return;
    timer = setTimeout(probe, DOWN_INTERVAL_MS);
    timer.unref();
  };

  probe();

  /** Express middleware: 503 while PocketBase is away; a failed call to it triggers a probe at once. */
  const middleware = (req, res, next) => {
    if (!up) {
      if (req.path === "/api/events" && String(req.headers.accept ?? "").includes("text/event-stream")) {
        // EventSource gives up on an error status; a short stream asking it to retry keeps it trying.
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
        res.end(`retry: 1000\n: ${UNAVAILABLE_MESSAGE}\n\n`);
        return;
      }
      if (req.method === "GET" && String(req.headers.accept ?? "").includes("text/html")) {
        const page = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>ChatCrypt</title><p>${UNAVAILABLE_MESSAGE}</p>`;
        res.writeHead(503, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "1" });
        res.end(page);
        return;
      }
      sendError(res, 503, UNAVAILABLE_MESSAGE, { "Retry-After": "1" });
      return;
    }
    res.on("finish", () => {
      if (res.statusCode === 502 || res.statusCode === 503) probe();
    });
    next();
  };

  return {
    middleware,
    isUp: () => up,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
