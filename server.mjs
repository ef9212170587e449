// Production web server: the built Remix app on Express. It passes the client's address to the app so
// PocketBase's rate limiter can tell users apart (set TRUST_PROXY when behind a reverse proxy).
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const HOST = process.env.HOST || "127.0.0.1";
const PORT = Number(process.env.PORT || 3000);

const build = await import("./build/server/index.js");
const app = express();
app.disable("x-powered-by");
// TRUST_PROXY: how many reverse proxies stand in front (e.g. 1), or false when browsers connect directly.
const trust = process.env.TRUST_PROXY;
app.set("trust proxy", trust === undefined || trust === "false" ? false : /^\d+$/.test(trust) ? Number(trust) : trust);

// Live streams must not be buffered by compression.
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
