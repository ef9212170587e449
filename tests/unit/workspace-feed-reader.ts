// pb_hooks/lib/feed.js in Node, with the parser of our PocketBase build, for the feed reader's tests
// (workspace-feed-*.test.ts). The file is loaded into a bare JS context that has only the
// language's built-ins and $parseFeed, like the hooks' runtime: no require, process, Buffer, URL or
// DOM. A use of any of them fails here before it fails in PocketBase. $parseFeed, and the HTML text
// and character reference decoding the reader uses, are answered by bin/pocketbase's `parse`
// command (pocketbase/parsers.go): the Go code the hooks run.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { beforeAll } from "vitest";
import type { FeedItem } from "~/features/news/feed";

interface FeedModule {
  parseFeed(xmlText: unknown, limit?: number): FeedItem[];
  stripHtml(html: unknown): string;
  decodeEntities(text: string): string;
}

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const binary = path.join(repoRoot, "bin", "pocketbase");

/** The reader, for the calling test file; builds bin/pocketbase first when its sources changed (the script does nothing otherwise). */
export function useFeedReader(): FeedModule {
  beforeAll(() => {
    execFileSync("bash", [path.join(repoRoot, "scripts", "build-pocketbase.sh")], { cwd: repoRoot, stdio: "ignore" });
  }, 300_000);
  return loadFeedModule();
}

/** `pocketbase parse <kind>` on a document given as text. */
function parse(kind: string, input: string, args: string[] = []): unknown {
  const output = execFileSync(binary, ["parse", kind, ...args], { input, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(output.toString("utf8"));
}

function loadFeedModule(): FeedModule {
  const source = readFileSync(new URL("../../pb_hooks/lib/feed.js", import.meta.url), "utf8");
  const module = { exports: {} as unknown };
  const $parseFeed = (body: string, baseUrl: string, options: { limit: number; contentType: string }) =>
    parse("feed", body, ["--url", baseUrl, "--limit", String(options.limit), "--content-type", options.contentType]);
  vm.runInNewContext(source, { module, exports: module.exports, $parseFeed }, { filename: "pb_hooks/lib/feed.js" });
  const exported = module.exports as FeedModule;
  // Values made in the other context are copied into this one, so that equality checks compare
  // data only.
  return {
    parseFeed: (xml, limit) => structuredClone(exported.parseFeed(xml, limit)),
    stripHtml: (html) => (typeof html === "string" && html !== "" ? (parse("html-text", html) as { text: string }).text : ""),
    decodeEntities: (text) => (parse("html-entities", text) as { text: string }).text,
  };
}

export const rss = (items: string, head = "") => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Channel title</title>
    <link>https://news.example/</link>
    <description>Channel description</description>
    <atom:link href="https://news.example/feed.xml" rel="self" type="application/rss+xml"/>
    ${head}
    ${items}
  </channel>
</rss>`;
