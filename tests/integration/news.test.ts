// GET /api/chat/news against the real PocketBase: the feed is served by a loopback HTTP server
// (news-site.ts) whose content the tests change, allowlisted with LINK_PREVIEW_ALLOW_HOSTS (the
// only way past the SSRF guard). Four servers: cache off, default cache, no allowlist, and no feed
// configured.

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FeedResponse } from "~/features/news/feed";
import { FIRST, SECOND, fixture, startFeedSite } from "./news-site";
import { signUpUser, startPocketBase, superuserClient, type RunningPocketBase, type TestUser } from "./pocketbase";

const ROUTE = "/api/chat/news";

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

  it("reads CDATA and entities once per level, and resolves relative links against the feed's address", async () => {
    site.mode = "fixture";
    site.fixture = { type: "application/rss+xml", body: fixture("feed-cdata-entities.xml") };
    const res = await news(pb.url, user.token);
    expect(res.body).toEqual({
      configured: true,
      items: [
        {
          id: "fish-1",
          title: "Fish & Chips tonight",
          description: "Crispy & hot — see the menu",
          pubDate: "Sun, 22 Nov 2026 16:00:00 GMT",
          link: `${site.origin}/menu/fish?a=1&b=2`,
        },
        {
          id: "https://news.example/att",
          title: "AT&T — café “quoted”",
          description: "Escaped markup &amp; more",
          pubDate: "",
          link: "https://news.example/att",
        },
        {
          id: "Mixed CDATA and text & more",
          title: "Mixed CDATA and text & more",
          description: "Full text]]> with a CDATA end inside",
          pubDate: "2026-11-21T10:00:00Z",
          link: "",
        },
      ],
    });
    site.mode = "rss";
  });

  it("decodes a feed by its XML declaration, even when the server says UTF-8", async () => {
    site.mode = "fixture";
    for (const type of ["application/rss+xml", "text/xml; charset=utf-8"]) {
      site.fixture = { type, body: fixture("feed-latin1.xml") };
      const res = await news(pb.url, user.token);
      expect(res.body.items, type).toEqual([{ id: "latin-1", title: "Café crème", description: "À la carte, 5 €", pubDate: "", link: "" }]);
    }
    site.mode = "rss";
  });

  it("reads Atom (summary before content, by type), JSON feeds and broken XML", async () => {
    site.mode = "fixture";
    site.fixture = { type: "application/atom+xml", body: fixture("feed-atom-content-summary.xml") };
    const atom = await news(pb.url, user.token);
    expect(atom.body.items.map((item) => [item.title, item.description, item.link])).toEqual([
      ["Summary and content", "The short version.", `${site.origin}/posts/1`],
      ["HTML title & more", "Only content, as HTML in CDATA.", "https://blog.example/2"],
      ["Use <b> for bold", "Inline XHTML & more", ""],
      ["Content elsewhere", "", ""],
      ["Binary content", "From the media group.", ""],
    ]);

    site.fixture = { type: "application/feed+json", body: fixture("feed.json") };
    const json = await news(pb.url, user.token);
    expect(json.body.items).toEqual([
      {
        id: "1",
        title: "Numbered id & <plain> title",
        description: "Hello world & more",
        pubDate: "2026-11-22T10:00:00Z",
        link: `${site.origin}/posts/1`,
      },
      { id: "2", title: "", description: "The summary wins", pubDate: "2026-11-23T10:00:00Z", link: "https://elsewhere.example/2" },
    ]);

    site.fixture = { type: "application/rss+xml; charset=utf-8", body: fixture("feed-broken.xml") };
    const broken = await news(pb.url, user.token);
    expect(broken.body.items.map((item) => item.title)).toEqual(["Tom & Jerry < 3", "Misspelt end tag", "Cut off in the middle"]);

    // JSON that is not a JSON Feed is no feed.
    site.fixture = { type: "application/json", body: Buffer.from('{"items":[{"id":"1","title":"An API answer"}]}') };
    expect((await news(pb.url, user.token)).body).toEqual({ configured: true, items: [], error: "The news feed could not be loaded." });
    site.mode = "rss";
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
    expect((await loggedFailureCodes(pb, 3)).sort()).toEqual(["not_a_feed", "not_a_feed", "status"]);

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

  it("?check=1 says whether a feed is configured without fetching it", async () => {
    const before = site.requests;
    const res = await fetch(`${pb.url}${ROUTE}?check=1`, { headers: { Authorization: user.token } });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: { configured: true, items: [] } });
    expect(site.requests).toBe(before);
    const other = await signUpUser(unconfiguredPb.url);
    const none = await fetch(`${unconfiguredPb.url}${ROUTE}?check=1`, { headers: { Authorization: other.token } });
    expect(await none.json()).toEqual({ configured: false, items: [] });
  });

  // Last: closes the feed server.
  it("answers 200 with an error text when the feed server refuses connections", async () => {
    const closed = new Promise((resolve) => site.server.close(resolve));
    site.server.closeAllConnections();
    await closed;
    const res = await news(pb.url, user.token);
    expect(res).toEqual({ status: 200, body: { configured: true, items: [], error: "The news feed could not be loaded." } });
    expect(await loggedFailureCodes(pb, 4)).toContain("unreachable");
  });
});
