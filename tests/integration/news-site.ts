// The loopback feed of the news tests (news.test.ts), whose content the tests change, and the items
// and fixtures it serves.

import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SourceItem {
  guid: string;
  title: string;
  description: string;
  pubDate: string;
  link: string;
}

/** A fixture of pocketbase/testdata, shared with the Go tests of the parsers. */
export const fixture = (name: string) => readFileSync(new URL(`../../pocketbase/testdata/${name}`, import.meta.url));

/**
 * A loopback feed: `items` and `mode` are changed by the tests ("fixture" serves `fixture` as it
 * is); every request is counted.
 */
export function startFeedSite() {
  const state = {
    items: [] as SourceItem[],
    mode: "rss" as "rss" | "error" | "html" | "fixture",
    fixture: { type: "", body: Buffer.alloc(0) },
    requests: 0,
    server: undefined as unknown as http.Server,
    origin: "",
  };

  const rss = () =>
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>Team news</title>
    <link>https://news.example/</link>
    ${state.items
      .map(
        (item) => `<item>
      <title>${item.title}</title>
      <link>${item.link}</link>
      <description>${item.description}</description>
      <pubDate>${item.pubDate}</pubDate>
      <guid isPermaLink="false">${item.guid}</guid>
    </item>`,
      )
      .join("\n")}
  </channel>
</rss>`;

  state.server = http.createServer((req, res) => {
    state.requests++;
    if (req.url !== "/feed.xml") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    } else if (state.mode === "error") {
      res.writeHead(500, { "Content-Type": "application/rss+xml" }).end("<rss/>");
    } else if (state.mode === "fixture") {
      res.writeHead(200, { "Content-Type": state.fixture.type }).end(state.fixture.body);
    } else if (state.mode === "html") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<!doctype html><title>Sign in</title><p>Portal</p>");
    } else {
      res.writeHead(200, { "Content-Type": "application/rss+xml; charset=utf-8" }).end(rss());
    }
  });

  return new Promise<typeof state>((resolve) => {
    state.server.listen(0, "127.0.0.1", () => {
      state.origin = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
      resolve(state);
    });
  });
}

export const FIRST: SourceItem = {
  guid: "news-1",
  title: "Release &amp;amp; roadmap",
  description:
    "&lt;p&gt;Version &lt;b&gt;2.0&lt;/b&gt; is out&amp;hellip;&lt;/p&gt;&lt;script&gt;alert('x')&lt;/script&gt;&lt;style&gt;p{}&lt;/style&gt;",
  pubDate: "Sun, 22 Nov 2026 16:00:00 GMT",
  link: "https://news.example/release",
};

export const SECOND: SourceItem = {
  guid: "news-2",
  title: "<![CDATA[Security <em>notice</em>]]>",
  description: "<![CDATA[<div>Rotate your keys &mdash; today.<!-- hidden --></div>]]>",
  pubDate: "Mon, 23 Nov 2026 09:30:00 GMT",
  link: "javascript:alert(1)",
};
