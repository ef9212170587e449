// GET /api/chat/news against the real PocketBase: the feed is served by a loopback HTTP server
// whose content the tests change, allowlisted with LINK_PREVIEW_ALLOW_HOSTS (the only way past
// the SSRF guard). Four servers: cache off, default cache, no allowlist, and no feed configured.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FeedResponse } from "~/features/news/feed";
import { signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";

const ROUTE = "/api/chat/news";

interface SourceItem {
  guid: string;
  title: string;
  description: string;
  pubDate: string;
  link: string;
}

/** A loopback feed: `items` and `mode` are changed by the tests; every request is counted. */
function startFeedSite() {
  const state = {
    items: [] as SourceItem[],
    mode: "rss" as "rss" | "error" | "html",
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

const FIRST: SourceItem = {
  guid: "news-1",
  title: "Release &amp;amp; roadmap",
  description:
    "&lt;p&gt;Version &lt;b&gt;2.0&lt;/b&gt; is out&amp;hellip;&lt;/p&gt;&lt;script&gt;alert('x')&lt;/script&gt;&lt;style&gt;p{}&lt;/style&gt;",
  pubDate: "Sun, 22 Nov 2026 16:00:00 GMT",
  link: "https://news.example/release",
};

const SECOND: SourceItem = {
  guid: "news-2",
  title: "<![CDATA[Security <em>notice</em>]]>",
  description: "<![CDATA[<div>Rotate your keys &mdash; today.<!-- hidden --></div>]]>",
  pubDate: "Mon, 23 Nov 2026 09:30:00 GMT",
  link: "javascript:alert(1)",
};

let site: Awaited<ReturnType<typeof startFeedSite>>;
let pb: RunningPocketBase;
let cachedPb: RunningPocketBase;
let guardedPb: RunningPocketBase;
let unconfiguredPb: RunningPocketBase;
let user: TestUser;

beforeAll(async () => {
  site = await startFeedSite();
  const feedUrl = `${site.origin}/feed.xml`;
  const allow = new URL(site.origin).host;
  [pb, cachedPb, guardedPb, unconfiguredPb] = await Promise.all([
    startPocketBase({ env: { NEWS_FEED_URL: feedUrl, LINK_PREVIEW_ALLOW_HOSTS: allow, NEWS_FEED_CACHE_SECONDS: "0" } }),
    startPocketBase({ env: { NEWS_FEED_URL: feedUrl, LINK_PREVIEW_ALLOW_HOSTS: allow, NEWS_FEED_CACHE_SECONDS: "" } }),
    startPocketBase({ env: { NEWS_FEED_URL: feedUrl, LINK_PREVIEW_ALLOW_HOSTS: "", NEWS_FEED_CACHE_SECONDS: "0" } }),
    startPocketBase({ env: { NEWS_FEED_URL: "", LINK_PREVIEW_ALLOW_HOSTS: allow } }),
  ]);
  user = await signUpUser(pb.url);
});

afterAll(async () => {
  await Promise.all([pb?.stop(), cachedPb?.stop(), guardedPb?.stop(), unconfiguredPb?.stop()]);
  await new Promise((resolve) => site?.server.close(resolve));
});

async function news(baseUrl: string, token?: string) {
  const res = await fetch(`${baseUrl}${ROUTE}`, { headers: token ? { Authorization: token } : {} });
  return { status: res.status, body: (await res.json()) as FeedResponse & { message?: string } };
}

/** The fetch failure codes PocketBase logged; it writes its logs in batches, so this waits for `count`. */
async function loggedFailureCodes(server: RunningPocketBase, count: number): Promise<string[]> {
  const admin = await superuserClient(server.url, server.superuser);
  let codes: string[] = [];
  await vi.waitFor(
    async () => {
      const logs = await admin.logs.getList(1, 50, { filter: `message = "News feed failed"` });
      codes = logs.items.map((entry) => String((entry.data as { code?: unknown }).code ?? ""));
      expect(codes).toHaveLength(count);
    },
    { timeout: 15_000, interval: 500 },
  );
  return codes;
}

/** The news as a user of the given server sees it (signs a user up there). */
async function newsAsNewUser(server: RunningPocketBase) {
  const other = await signUpUser(server.url);
  return news(server.url, other.token);
}

describe("GET /api/chat/news", () => {
  it("refuses callers who are not signed in", async () => {
    const res = await news(pb.url);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Not authenticated");

    const forged = await news(pb.url, "not-a-token");
    expect(forged.status).toBe(401);
  });

  it("answers the feed's items as plain text", async () => {
    site.mode = "rss";
    site.items = [FIRST];
    const res = await news(pb.url, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      configured: true,
      items: [
        {
          id: "news-1",
          title: "Release & roadmap",
          description: "Version 2.0 is out…",
          pubDate: "Sun, 22 Nov 2026 16:00:00 GMT",
          link: "https://news.example/release",
        },
      ],
    });
  });

  it("reads CDATA, drops comments and links that are not http(s)", async () => {
    site.items = [SECOND, FIRST];
    const res = await news(pb.url, user.token);
    expect(res.body.items[0]).toEqual({
      id: "news-2",
      title: "Security notice",
      description: "Rotate your keys — today.",
      pubDate: "Mon, 23 Nov 2026 09:30:00 GMT",
      link: "",
    });
  });

  it("shows a newly published item on the next request when the cache is off", async () => {
    site.items = [FIRST];
    expect((await news(pb.url, user.token)).body.items.map((item) => item.id)).toEqual(["news-1"]);

    site.items = [{ ...FIRST, guid: "news-3", title: "Fresh item" }, FIRST];
    const res = await news(pb.url, user.token);
    expect(res.body.items.map((item) => item.id)).toEqual(["news-3", "news-1"]);
    expect(res.body.items[0].title).toBe("Fresh item");
  });

  it("answers at most 30 items", async () => {
    site.items = Array.from({ length: 45 }, (_, i) => ({ ...FIRST, guid: `bulk-${i}`, title: `Item ${i}` }));
    const res = await news(pb.url, user.token);
    expect(res.body.items).toHaveLength(30);
    expect(res.body.items[29].id).toBe("bulk-29");
  });

  it("answers 200 with an error text when the feed fails, and recovers", async () => {
    site.items = [FIRST];
    site.mode = "error";
    expect(await news(pb.url, user.token)).toEqual({
      status: 200,
      body: { configured: true, items: [], error: "The news feed could not be loaded." },
    });

    site.mode = "html";
    expect((await news(pb.url, user.token)).body).toEqual({
      configured: true,
      items: [],
      error: "The news feed could not be loaded.",
    });
    expect((await loggedFailureCodes(pb, 2)).sort()).toEqual(["not_a_feed", "status"]);

    site.mode = "rss";
    expect((await news(pb.url, user.token)).body.items.map((item) => item.id)).toEqual(["news-1"]);
  });

  it("reuses a fetched feed for NEWS_FEED_CACHE_SECONDS (120 by default)", async () => {
    site.mode = "rss";
    site.items = [FIRST];
    const cachedUser = await signUpUser(cachedPb.url);
    const before = site.requests;
    expect((await news(cachedPb.url, cachedUser.token)).body.items.map((item) => item.id)).toEqual(["news-1"]);

    site.items = [{ ...FIRST, guid: "news-4" }, FIRST];
    expect((await news(cachedPb.url, cachedUser.token)).body.items.map((item) => item.id)).toEqual(["news-1"]);
    expect(site.requests - before).toBe(1);
  });

  it("fetches through the SSRF guard: a loopback feed that is not allowlisted is refused", async () => {
    site.mode = "rss";
    site.items = [FIRST];
    const before = site.requests;
    const res = await newsAsNewUser(guardedPb);
    expect(res).toEqual({ status: 200, body: { configured: true, items: [], error: "The news feed could not be loaded." } });
    expect(site.requests).toBe(before);
    expect(await loggedFailureCodes(guardedPb, 1)).toEqual(["blocked"]);
  });

  it("says so when no feed is configured", async () => {
    const res = await newsAsNewUser(unconfiguredPb);
    expect(res).toEqual({ status: 200, body: { configured: false, items: [] } });
  });

  // Last: closes the feed server.
  it("answers 200 with an error text when the feed server refuses connections", async () => {
    const closed = new Promise((resolve) => site.server.close(resolve));
    site.server.closeAllConnections();
    await closed;
    const res = await news(pb.url, user.token);
    expect(res).toEqual({ status: 200, body: { configured: true, items: [], error: "The news feed could not be loaded." } });
    expect(await loggedFailureCodes(pb, 3)).toContain("unreachable");
  });
});
