import { createServer, type Server } from "node:http";
import { deflateSync } from "node:zlib";

/** A real PNG of one solid colour, so a browser can render it. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const rows = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

interface FeedEntry {
  title: string;
  description: string;
}

function rss(entries: FeedEntry[]): string {
  const items = entries
    .map(
      (e, i) => `<item><title>${e.title}</title><guid>item-${i}-${encodeURIComponent(e.title)}</guid>
<description><![CDATA[<p>${e.description}</p><script>alert("x")</script>]]></description>
<pubDate>Sun, 22 Nov 2026 10:0${i % 10}:00 GMT</pubDate></item>`,
    )
    .reverse()
    .join("\n");
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Test news</title>${items}</channel></rss>`;
}

/**
 * A site on loopback (allowlisted for the server's fetches in tests): an article page carrying Open
 * Graph tags for link previews, and an RSS feed to which tests add items with POST /feed/items.
 */
export async function startPreviewSite(): Promise<{ origin: string; server: Server }> {
  const image = solidPng(32, 32, [0x25, 0x63, 0xeb]);
  const feed: FeedEntry[] = [
    { title: "Security bulletin: key rotation best practices", description: "Rotate &amp; review your keys." },
    { title: "Team update: new office hours", description: "Office hours move to Thursday." },
  ];
  const server = createServer((req, res) => {
    if (req.url === "/feed.xml") {
      res.writeHead(200, { "Content-Type": "application/rss+xml; charset=utf-8" });
      return res.end(rss(feed));
    }
    if (req.url === "/feed/items" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        feed.push(JSON.parse(body) as FeedEntry);
        res.writeHead(204).end();
      });
      return;
    }
    if (req.url === "/logo.png") {
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": image.length });
      return res.end(image);
    }
    if (req.url?.startsWith("/article")) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html><head><title>Fallback title</title>
<meta property="og:title" content="Quarterly Security Review &amp; Roadmap">
<meta property="og:description" content="What we shipped, what we fixed, and what comes next.">
<meta property="og:image" content="/logo.png"></head><body><h1>Article</h1></body></html>`);
    }
    if (req.url?.startsWith("/second")) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html><head><meta property="og:title" content="Winter Rollout Plan">
<meta property="og:description" content="Who moves first, and when."></head><body><h1>Second</h1></body></html>`);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, server };
}
