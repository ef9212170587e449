// Production web server: the built Remix app on Express. It passes the client's address to the app so
// PocketBase's rate limiter can tell users apart (set TRUST_PROXY when behind a reverse proxy).
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { superviseWebProcesses } from "./server/processes.mjs";

const HOST = process.env.HOST || "127.0.0.1";
const PORT = Number(process.env.PORT || 3000);

// WEB_PROCESSES (default: one per core): this process may only supervise the ones that serve.
if (superviseWebProcesses()) await new Promise(() => {});

const build = await import("./build/server/index.js");
const app = express();
app.disable("x-powered-by");
// TRUST_PROXY: how many reverse proxies stand in front (e.g. 1), "true" to trust every hop, the proxies'
// addresses or subnets (comma-separated), or unset/false when browsers connect directly.
function trustProxy(value) {
  const v = (value ?? "").trim();
  if (v === "" || v === "false" || v === "0") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v.split(",").map((part) => part.trim()).filter(Boolean);
}
try {
  app.set("trust proxy", trustProxy(process.env.TRUST_PROXY));
} catch {
  console.error(`TRUST_PROXY="${process.env.TRUST_PROXY}" is not a number, true/false, or a list of addresses.`);
  process.exit(1);
}

// Live streams (/api/events) and message sends, before compression and Remix (app/server/fast-routes.server.ts).
app.use(build.entry.module.handleFastRoutes);
app.use(compression({ filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res) }));
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client", { maxAge: "1h" }));
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    getLoadContext: (req) => ({ clientIp: req.ip ?? "" }),
  }),
);

const server = app.listen(PORT, HOST, () => console.log(`ChatCrypt web server on http://${HOST}:${PORT}`));
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
