// Request bodies on the production web server (ADR 66):
// - a body that stops arriving (nothing for BODY_IDLE_MS while this server is ready to read) ends
//   the request with 408, so a slow sender cannot hold a connection for minutes;
// - a request answered before its body has arrived (413, 429, ...) gets its answer, not a reset: the
//   rest of the body is read and thrown away, up to `drainMaxBytes` (then the connection is cut);
//   when the caller had no session (401, 403) nothing more of a large or chunked body is read, and
//   the connection closes a second after the answer.
import { sendError } from "./guards.mjs";

export const BODY_IDLE_MS = 10_000;
const CHECK_EVERY_MS = 1_000;
const SMALL_BODY_BYTES = 64 * 1024;
const CLOSE_AFTER_REFUSAL_MS = 1_000;
export const BODY_IDLE_MESSAGE = "The request's body stopped arriving. Please try again.";

function hasBody(req) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** Watches the body of one request; `drainMaxBytes`: at most this much is thrown away after an early answer. */
export function guardRequestBody(req, res, drainMaxBytes) {
  if (!hasBody(req)) return;
  const socket = req.socket;
  let lastBytes = socket.bytesRead;
  let idleSince = Date.now();
  const check = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(check);
    // waiting on this server (the body is paused or its buffer full) is not the sender's idleness
    const heldHere = req.readableFlowing === false || req.readableLength >= req.readableHighWaterMark;
    if (socket.bytesRead !== lastBytes || heldHere) {
      lastBytes = socket.bytesRead;
      idleSince = Date.now();
      return;
    }
    if (Date.now() - idleSince < BODY_IDLE_MS) return;
    clearInterval(check);
    if (!res.headersSent) sendError(res, 408, BODY_IDLE_MESSAGE, { Connection: "close" });
    socket.destroySoon?.();
    setTimeout(() => socket.destroy(), 1_000).unref();
  }, CHECK_EVERY_MS);
  check.unref();

  // Without a session, a large or chunked body is not read: the answer closes the connection
  // (a small declared one is read as usual, so the connection stays open for the next request).
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  const smallBody = Number.isFinite(declared) && declared <= SMALL_BODY_BYTES;
  const refusesToRead = (status) => (status === 401 || status === 403) && !smallBody;
  // Node closes a connection whose sender asked for it (Connection: close) as soon as the answer is
  // written; with the body still arriving that is a reset, so here the connection is only ended
  // (the body is still read, or left for a moment) and destroyed below.
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete && !res.headersSent) socket.destroySoon = () => socket.end();
    return writeHead.apply(this, args);
  };
  res.once("finish", () => {
    clearInterval(check);
    if (req.complete || socket.destroyed) return;
    if (refusesToRead(res.statusCode)) {
      // nothing more is read; the connection goes once the answer has had a moment to arrive (closing
      // at once would reset it before the sender reads it)
      req.removeAllListeners("data");
      req.pause();
      setTimeout(() => socket.destroy(), CLOSE_AFTER_REFUSAL_MS).unref();
      return;
    }
    // whoever was reading the body stopped: its listeners go, and the rest is read and dropped
    req.removeAllListeners("data");
    let drained = 0;
    req.on("data", (chunk) => {
      drained += chunk.length;
      if (drained > drainMaxBytes) socket.destroy();
    });
    req.resume();
    const idle = setInterval(() => {
      if (req.complete || socket.destroyed) return clearInterval(idle);
      if (socket.bytesRead === lastBytes) {
        clearInterval(idle);
        socket.destroy();
      }
      lastBytes = socket.bytesRead;
    }, BODY_IDLE_MS);
    idle.unref();
    const stop = () => clearInterval(idle);
    req.once("end", () => {
      stop();
      if (!res.shouldKeepAlive) socket.destroy();
    });
    socket.once("close", stop);
  });
  socket.once("close", () => clearInterval(check));
}
