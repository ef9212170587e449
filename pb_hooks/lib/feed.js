// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Reading the news feed for GET /api/chat/news. The parsing is done by $parseFeed in our
// PocketBase build (pocketbase/feed.go: gofeed for RSS, Atom and JSON Feed, golang.org/x/net/html
// for the HTML inside items); this file checks what it is given and passes it on.
//
// Plain ES2015 with no runtime APIs but $parseFeed, so that the unit tests
// (tests/unit/workspace-feed-*.test.ts, through workspace-feed-reader.ts) load it into a bare
// context, with $parseFeed answered by bin/pocketbase.

const DEFAULT_LIMIT = 30;

// The feed in `body`: a string, or an ArrayBuffer as $safeFetch answers with raw: true (then
// decoded by its byte order mark, options.contentType's charset or its XML declaration).
// Answers {format, items}: format is "rss", "atom" or "json", or "" for anything that is no feed;
// items are at most options.limit (default 30) {id, title, description, pubDate, link}, every
// field a string: title and description plain text (at most 300 and 1,000 characters), pubDate
// as the feed writes it, link an absolute http(s) address (relative ones resolved against
// options.baseUrl) or "", id the guid or id, else the link, else the title, unique in the answer.
/**
 * @param {unknown} body
 * @param {{limit?: unknown, baseUrl?: unknown, contentType?: unknown}} [options]
 * @returns {ParsedFeed}
 */
function readFeed(body, options) {
  const opts = options || {};
  const limit = typeof opts.limit === "number" && isFinite(opts.limit) ? Math.max(0, Math.floor(opts.limit)) : DEFAULT_LIMIT;
  if (!((typeof body === "string" && body !== "") || body instanceof ArrayBuffer)) {
    return { format: "", items: [] };
  }
  return $parseFeed(body, typeof opts.baseUrl === "string" ? opts.baseUrl : "", {
    limit: limit,
    contentType: typeof opts.contentType === "string" ? opts.contentType : "",
  });
}

// The items of a feed, as readFeed reads them; nothing for anything that is no feed.
/**
 * @param {unknown} body
 * @param {unknown} [limit]
 * @returns {ParsedFeedItem[]}
 */
function parseFeed(body, limit) {
  return readFeed(body, { limit: limit }).items;
}

module.exports = { readFeed, parseFeed };
