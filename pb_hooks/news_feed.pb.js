// @ts-check
/// <reference path="../types/hooks.d.ts" />

// GET /api/chat/news (signed-in users)
//
// The news feed sidebar's source: the RSS, Atom or JSON feed at NEWS_FEED_URL, fetched here so
// that browsers never contact the feed's site, read into plain-text items ($parseFeed through
// lib/feed.js) and cached.
//
//   NEWS_FEED_URL            the feed's http(s) address; unset: the sidebar shows no feed
//   NEWS_FEED_CACHE_SECONDS  how long a fetched feed is reused, default 120; 0 fetches every time
//
// The feed is fetched with $safeFetch (pocketbase/safefetch.go): public addresses only unless
// LINK_PREVIEW_ALLOW_HOSTS allowlists the host, 5 s, 512 KB.
//
// ?check=1 answers {"configured": true|false, "items": []} at once, without fetching (the page asks
// once, to hide the News Feed button on a server without a feed).
// Answer (always 200): {"configured": false, "items": []} without NEWS_FEED_URL;
//   {"configured": true, "items": [{id, title, description, pubDate, link}]} with at most 30 items;
//   {"configured": true, "items": [], "error": "The news feed could not be loaded."} when the feed
//   cannot be fetched or read (logged; a feed failure is silent in the spec).
// Errors: 401 "Not authenticated"
routerAdd("GET", "/api/chat/news", (e) => {
  const { requireUser } = require(`${__hooks}/lib/request.js`);
  const { readFeed } = require(`${__hooks}/lib/feed.js`);

  const FEED_MAX_BYTES = 512 * 1024;
  const FEED_TIMEOUT_SEC = 5;
  const FEED_TYPES = [
    "application/rss+xml",
    "application/atom+xml",
    "application/xml",
    "text/xml",
    "text/html",
    "application/feed+json",
    "application/json",
  ];
  const ITEMS_MAX = 30;
  const DEFAULT_CACHE_SECONDS = 120;
  const LOAD_FAILED = "The news feed could not be loaded.";

  requireUser(e, "Not authenticated");

  const feedUrl = String($os.getenv("NEWS_FEED_URL") || "").trim();
  if (feedUrl === "") {
    return e.json(200, { configured: false, items: [] });
  }
  if (e.request.url.query().get("check") === "1") {
    return e.json(200, { configured: true, items: [] });
  }

  const rawSeconds = String($os.getenv("NEWS_FEED_CACHE_SECONDS") || "").trim();
  const cacheSeconds = /^[0-9]{1,7}$/.test(rawSeconds) ? parseInt(rawSeconds, 10) : DEFAULT_CACHE_SECONDS;
  const cacheKey = "chat.newsFeed " + feedUrl;
  const store = e.app.store();

  if (cacheSeconds > 0) {
    const cached = store.get(cacheKey);
    if (typeof cached === "string" && cached !== "") {
      try {
        const entry = JSON.parse(cached);
        if (entry && Date.now() - entry.at < cacheSeconds * 1000 && Array.isArray(entry.items)) {
          return e.json(200, { configured: true, items: entry.items });
        }
      } catch (_) {
        // fetch again
      }
    }
  }

  // A failure of ours, logged with a code like those of $safeFetch.
  /**
   * @param {string} code
   * @param {string} message
   */
  const failure = (code, message) => Object.assign(new Error(message), { code: code });

  let items;
  try {
    const res = $safeFetch({
      url: feedUrl,
      maxBytes: FEED_MAX_BYTES,
      timeoutSec: FEED_TIMEOUT_SEC,
      accept: FEED_TYPES,
      raw: true,
    });
    if (res.status < 200 || res.status > 299) {
      throw failure("status", "the feed answered with status " + res.status);
    }
    // Relative links are resolved against the feed's final address.
    const feed = readFeed(res.body, {
      limit: ITEMS_MAX,
      baseUrl: res.finalUrl,
      contentType: res.headers["content-type"] || "",
    });
    // An empty list is fine for an empty feed, not for a page that is no feed at all.
    if (feed.format === "") {
      throw failure("not_a_feed", "the answer is not an RSS, Atom or JSON feed");
    }
    items = feed.items;
  } catch (err) {
    const failed = /** @type {{code?: unknown, message?: unknown}} */ (Object(err));
    const code = typeof failed.code === "string" ? failed.code : "unexpected";
    e.app.logger().warn("News feed failed", "url", feedUrl, "code", code, "error", String(failed.message || err));
    return e.json(200, { configured: true, items: [], error: LOAD_FAILED });
  }

  if (cacheSeconds > 0) {
    store.set(cacheKey, JSON.stringify({ at: Date.now(), items: items }));
  }
  return e.json(200, { configured: true, items: items });
});
