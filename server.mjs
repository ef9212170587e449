// Production web server: the built Remix app on Express. It passes the client's address to the app so
// PocketBase's rate limiter can tell users apart (set TRUST_PROXY when behind a reverse proxy).
import http from "node:http";
import path from "node:path";
import { format } from "node:util";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { answerClientError, errorHandler, methodGuard, privateResponses, routeGuard, sendError } from "./server/guards.mjs";
import { guardRequestBody } from "./server/body-guard.mjs";
import { TOO_LARGE_MESSAGE, tooLargeAtOnce } from "./server/body-limits.mjs";
import { watchPocketBase } from "./server/pocketbase-watch.mjs";
import { superviseWebProcesses } from "./server/processes.mjs";

// The specification's query form of an invite link, /?invite=<id>&key=<secret>, puts a channel secret
// in the request line. Nothing this process writes may contain it: every log line has key=... masked
// (whatever logs it: Express, Remix, our code), and the parameter is dropped from the URL before any
// handler sees it, so the app never has it to pass on (to PocketBase or elsewhere). The browser still
// reads it from its own address bar.
const SECRET_NAME = "(?:k|%6b)(?:e|%65)(?:y|%79)"; // "key", also percent-encoded
const SECRET_PARAM = new RegExp(`([?&;]${SECRET_NAME}=)[^&#\\s"'<>]*`, "gi");
const SECRET_PAIR = new RegExp(`^${SECRET_NAME}(=|$)`, "i");
for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
  const write = console[level].bind(console);
  console[level] = (...args) => write(format(...args).replace(SECRET_PARAM, "$1[redacted]"));
}
function withoutSecretParam(url) {
  const query = url.indexOf("?");
  if (query === -1) return url;
  const pairs = url.slice(query + 1).split("&");
  const kept = pairs.filter((pair) => !SECRET_PAIR.test(pair));
  if (kept.length === pairs.length) return url;
  return url.slice(0, query) + (kept.length > 0 ? `?${kept.join("&")}` : "");
}

const HOST = process.env.HOST || "127.0.0.1";
const PORT = Number(process.env.PORT || 3000);

// WEB_PROCESSES (default: one per core): this process may only supervise the ones that serve.
if (superviseWebProcesses()) await new Promise(() => {});

const build = await import("./build/server/index.js");
const app = express();
app.disable("x-powered-by");
// Nothing here reads req.query (Remix parses the URL itself): no query-string parsing per request.
app.set("query parser", false);
// TRUST_PROXY: how many reverse proxies stand in front (e.g. 1), "true" to trust every hop, the proxies'
// addresses or subnets (comma-separated), or unset/false when browsers connect directly.
function trustProxy(value) {
  const v = (value ?? "").trim();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}
try {
  app.set("trust proxy", trustProxy(process.env.TRUST_PROXY));
} catch {
  console.error(`TRUST_PROXY="${process.env.TRUST_PROXY}" is not a number, true/false, or a list of addresses.`);
  process.exit(1);
}

app.use((req, _res, next) => {
  req.url = withoutSecretParam(req.url);
  req.originalUrl = withoutSecretParam(req.originalUrl);
  next();
});
// Methods the app does not serve (TRACE, PROPFIND, ...) and OPTIONS are answered before anything else.
app.use(methodGuard);
const pocketbase = watchPocketBase(process.env.PB_URL || "http://127.0.0.1:8090");
const { handleFastRoutes, isFastRoute, answerRouteErrors } = build.entry.module;
// what a route did not answer itself (PocketBase's refusals and failures) gets a clear answer, never Remix's 500
// (app/server/route-errors.server.ts)
answerRouteErrors(build.routes);
// Live streams must not be buffered by compression.
app.use(
  compression({
    filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
  }),
);
// (redirect: false: a path that resolves to a directory, like /api/x/%2e%2e%2f, is not a static file)
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", redirect: false }));
// The service worker, the manifest and the offline page are asked for again on every use (no-cache), so
// a new version reaches browsers at once (ADR 25); the other files keep their hour.
const REVALIDATED = new Set(["sw.js", "manifest.webmanifest", "offline.html"]);
const clientDir = path.resolve("build/client");
const revalidate = (res, file) => {
  if (REVALIDATED.has(path.relative(clientDir, file))) res.setHeader("Cache-Control", "no-cache");
};
const clientFiles = express.static("build/client", { maxAge: "1h", redirect: false, setHeaders: revalidate });
// (no file lives under /api/: those requests skip the file lookup, a failed stat of the disk each)
app.use((req, res, next) => (req.path.startsWith("/api/") ? next() : clientFiles(req, res, next)));
// Everything past the static files is private to the signed-in user.
app.use(privateResponses);
app.use(pocketbase.middleware);
// Unknown API addresses and methods a route has no handler for get a clear JSON answer.
app.use(routeGuard(build.routes));
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req) => ({ clientIp: req.ip ?? "" }),
  }),
);

app.use(errorHandler);

// Live streams, message sends and pages of history, the requests every open page makes most, go
// straight to their handlers (app/fast-routes.server.ts): without Express's middleware chain,
// Remix's per-request work, streamed compression (a page of history is gzipped in one call there) or
// static file lookups. They get what the chain would give them: the address without its secret
// parameter, Express's request and response (req.ip under the same trust-proxy setting, req.path),
// the private-response headers, PocketBase outage answers, and the same error answers.
function fastRoute(req, res) {
  req.res = res;
  res.req = req;
  req.originalUrl = req.url;
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  const next = (error) => (error ? errorHandler(error, req, res, next) : app(req, res));
  try {
    privateResponses(req, res, () => pocketbase.middleware(req, res, () => handleFastRoutes(req, res, next)));
  } catch (error) {
    // e.g. a malformed percent-encoding in the address, which Express's chain would have caught
    next(error);
  }
}

// A request answered before its body arrived has the rest thrown away, up to the largest body a route
// takes (an upload), so the answer reaches the sender instead of a reset (server/body-guard.mjs).
const DRAIN_MAX_BYTES = (Number(process.env.UPLOAD_MAX_MB) || 50) * 1024 * 1024 + 1024 * 1024;
const server = http.createServer((req, res) => {
  req.url = withoutSecretParam(req.url);
  guardRequestBody(req, res, DRAIN_MAX_BYTES);
  if (tooLargeAtOnce(req, DRAIN_MAX_BYTES)) return sendError(res, 413, TOO_LARGE_MESSAGE, { Connection: "close" });
  if (isFastRoute(req)) fastRoute(req, res);
  else app(req, res);
});
// A request (an upload the longest of them) has five minutes to arrive whole, Node's default said
// aloud: pages tell a file that did not arrive by it (app/features/files/PendingAttachment.tsx).
server.requestTimeout = 5 * 60_000;
server.listen(PORT, HOST, () => console.log(`ChatCrypt web server on http://${HOST}:${PORT}`));
server.on("clientError", answerClientError);
const stop = () => {
  pocketbase.stop();
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
