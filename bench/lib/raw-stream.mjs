// A cheap simulated page stream for the capacity ramp: one TCP socket with a hand-written
// GET /api/events, whose bytes are scanned for the events' markers instead of being parsed as
// server-sent events and JSON. Tens of thousands of them fit in the bench process; what the web
// server does for each is exactly what it does for a browser's EventSource.
import net from "node:net";

const SYNC = Buffer.from('"type":"sync"');
const IV = Buffer.from('\\"iv\\":\\"'); // the envelope is JSON inside the event's JSON: \"iv\":\"<base64url>\"
const BACKSLASH = 0x5c;
const HEAD_END = Buffer.from("\r\n\r\n");

/**
 * Opens /api/events on `baseUrl` with the given Cookie header. onIv(iv, receivedAt) is called for
 * every message event (by its envelope's iv). Resolves with { close } once "sync" arrived. The bytes
 * are searched as they come (no decoding, no copies unless an event is split across reads).
 */
export function openRawStream(baseUrl, pathAndQuery, cookie, onIv, { timeoutMs = 60_000, onEnd = () => {} } = {}) {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    let head = true;
    let pending = null;
    let synced = false;
    let closed = false;
    const timer = setTimeout(() => fail(new Error(`no sync within ${timeoutMs} ms`)), timeoutMs);
    const close = () => {
      closed = true;
      socket.destroy();
    };
    const fail = (error) => {
      clearTimeout(timer);
      socket.destroy();
      if (!synced) reject(error);
    };
    socket.on("connect", () => {
      socket.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`);
    });
    socket.on("data", (chunk) => {
      const at = performance.now();
      let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      if (head) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) {
          pending = Buffer.from(buf);
          return;
        }
        const status = buf.toString("latin1", 9, 12);
        if (status !== "200") return fail(new Error(`event stream answered ${status}`));
        head = false;
        buf = buf.subarray(end + 4);
      }
      // Complete events end with a blank line; a partial one waits for the next read.
      const last = buf.lastIndexOf("\n\n");
      if (last < 0) {
        if (buf.length) pending = Buffer.from(buf);
        return;
      }
      if (last + 2 < buf.length) pending = Buffer.from(buf.subarray(last + 2));
      let i = buf.indexOf(IV);
      while (i >= 0 && i < last) {
        const start = i + IV.length;
        const stop = buf.indexOf(BACKSLASH, start);
        if (stop < 0) break;
        onIv(buf.toString("latin1", start, stop), at);
        i = buf.indexOf(IV, stop);
      }
      if (!synced) {
        const s = buf.indexOf(SYNC);
        if (s >= 0 && s < last) {
          synced = true;
          clearTimeout(timer);
          resolve({ close });
        }
      }
    });
    socket.on("error", (error) => fail(error));
    socket.on("close", () => {
      clearTimeout(timer);
      if (!synced) reject(new Error("event stream closed before sync"));
      else if (!closed) onEnd();
    });
  });
}
