// A page of livekit-client alone (served from node_modules by a loopback server of the test or the
// bench, not a page of the app): `script` is the module it runs, importing "./livekit-client.esm.mjs"
// and starting "./livekit-client.e2ee.worker.mjs" as it needs.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { freePort } from "./ports";

const DIST = "node_modules/livekit-client/dist";
const FILES = new Set(["livekit-client.esm.mjs", "livekit-client.e2ee.worker.mjs"]);

export async function serveLiveKitPage(script: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const name = (request.url ?? "").split("/").pop() ?? "";
    if (name === "index.html") {
      response.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><script type="module">${script}</script>`);
    } else if (FILES.has(name)) {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(readFileSync(`${DIST}/${name}`));
    } else response.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/index.html`, server };
}
