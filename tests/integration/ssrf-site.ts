// The servers of the SSRF tests (ssrf.test.ts) on loopback: the allowlisted site, with redirects, a
// 10 MB page, pages that never finish and a redirect loop; a trap that is not allowlisted and
// counts the connections it gets; and the names the hosts file maps to loopback.

import { readFileSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";

export const BIG_BODY_BYTES = 10 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

export interface Site {
  server: http.Server;
  origin: string;
  port: number;
  /** Bytes of /big the site managed to hand to the connection before it was closed. */
  bigBytesWritten: () => number;
  bigCompleted: () => boolean;
}

/** The allowlisted site: redirects, a 10 MB page, pages that never finish, a redirect loop. */
export function startSite(): Promise<Site> {
  let bigWritten = 0;
  let bigDone = false;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site.test");
    switch (url.pathname) {
      case "/go": {
        res.writeHead(302, { Location: url.searchParams.get("to") ?? "/" });
        res.end();
        return;
      }
      case "/chain": {
        // /chain?n=3 redirects 3 times, then shows a page
        const n = Number(url.searchParams.get("n") ?? "0");
        if (n > 0) {
          res.writeHead(307, { Location: `/chain?n=${n - 1}` });
          res.end();
        } else {
          res.writeHead(200, { "Content-Type": "text/html" });
          res.end("<title>End of the chain</title>");
        }
        return;
      }
      case "/loop": {
        res.writeHead(301, { Location: "/loop" });
        res.end();
        return;
      }
      case "/big": {
        // 10 MB of HTML: the title comes first, the description only after 600 KB
        res.writeHead(200, { "Content-Type": "text/html", "Content-Length": BIG_BODY_BYTES });
        const head = Buffer.from("<html><head><title>Huge page</title>");
        const tail = Buffer.from('<meta name="description" content="Beyond the cap">');
        const filler = Buffer.alloc(CHUNK_BYTES, " ");
        let sent = 0;
        const write = () => {
          while (sent < BIG_BODY_BYTES && !res.destroyed) {
            let chunk = sent === 0 ? Buffer.concat([head, filler.subarray(head.length)]) : filler;
            if (sent === 10 * CHUNK_BYTES) {
              chunk = Buffer.concat([tail, filler.subarray(tail.length)]);
            }
            chunk = chunk.subarray(0, Math.min(chunk.length, BIG_BODY_BYTES - sent));
            sent += chunk.length;
            const more = res.write(chunk, (err) => {
              if (!err) bigWritten += chunk.length;
            });
            if (!more) {
              res.once("drain", write);
              return;
            }
          }
          if (sent >= BIG_BODY_BYTES) {
            res.end(() => {
              bigDone = true;
            });
          }
        };
        res.on("error", () => undefined);
        write();
        return;
      }
      case "/slow": {
        // headers and the start of a page, then nothing, for as long as the client waits
        res.writeHead(200, { "Content-Type": "text/html" });
        res.write("<html><head><title>Slow");
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      case "/hang": {
        // not even headers
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      default: {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<title>Allowed page</title>");
      }
    }
  });
  server.on("close", () => {
    for (const res of hanging) res.destroy();
  });

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        origin: `http://127.0.0.1:${port}`,
        port,
        bigBytesWritten: () => bigWritten,
        bigCompleted: () => bigDone,
      });
    });
  });
}

/** A loopback TCP server that is NOT allowlisted: it counts connections and never answers. */
export function startTrap(): Promise<{ server: net.Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ server, port: (server.address() as AddressInfo).port, connections: () => connections });
    });
  });
}

/** Names the hosts file maps to loopback addresses (other than the usual localhost names). */
export function hostsFileLoopbackNames(): string[] {
  let text = "";
  try {
    text = readFileSync("/etc/hosts", "utf8");
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const line of text.split("\n")) {
    const [address, ...aliases] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address || !(address.startsWith("127.") || address === "::1")) continue;
    for (const name of aliases) {
      if (/^[a-z0-9.-]+$/i.test(name) && !/(^|\.)localhost$|^ip6-|localdomain$/i.test(name)) {
        names.push(name);
      }
    }
  }
  return names.slice(0, 3);
}
