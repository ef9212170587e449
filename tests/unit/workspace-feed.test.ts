// pb_hooks/lib/feed.js in Node, with the parser of our PocketBase build. The file is loaded into a
// bare JS context that has only the language's built-ins and $parseFeed, like the hooks' runtime:
// no require, process, Buffer, URL or DOM. A use of any of them fails here before it fails in
// PocketBase. $parseFeed, and the HTML text and character reference decoding the reader uses, are
// answered by bin/pocketbase's `parse` command (pocketbase/parsers.go): the Go code the hooks run.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import type { FeedItem } from "~/features/news/feed";

interface FeedModule {
  parseFeed(xmlText: unknown, limit?: number): FeedItem[];
  stripHtml(html: unknown): string;
  decodeEntities(text: string): string;
}

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const binary = path.join(repoRoot, "bin", "pocketbase");

// Builds bin/pocketbase when its sources changed (the script does nothing otherwise).
beforeAll(() => {
  execFileSync("bash", [path.join(repoRoot, "scripts", "build-pocketbase.sh")], { cwd: repoRoot, stdio: "ignore" });
}, 300_000);

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

const feed = loadFeedModule();

const rss = (items: string, head = "") => `<?xml version="1.0" encoding="UTF-8"?>
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

describe("parseFeed: RSS 2.0", () => {
  it("reads title, description, pubDate, link and guid of each item, in order", () => {
    const items = feed.parseFeed(
      rss(`
      <item>
        <title>Release 2.0</title>
        <link>https://news.example/release</link>
        <description>Version 2.0 is out.</description>
        <pubDate>Sun, 22 Nov 2026 16:00:00 GMT</pubDate>
        <guid isPermaLink="false">tag:news.example,2026:1</guid>
        <category>releases</category>
      </item>
      <item>
        <title>Second</title>
        <link>https://news.example/second</link>
        <description>Body</description>
        <pubDate>Mon, 23 Nov 2026 09:30:00 +0100</pubDate>
      </item>`),
      30,
    );
    expect(items).toEqual([
      {
        id: "tag:news.example,2026:1",
        title: "Release 2.0",
        description: "Version 2.0 is out.",
        pubDate: "Sun, 22 Nov 2026 16:00:00 GMT",
        link: "https://news.example/release",
      },
      {
        id: "https://news.example/second",
        title: "Second",
        description: "Body",
        pubDate: "Mon, 23 Nov 2026 09:30:00 +0100",
        link: "https://news.example/second",
      },
    ]);
  });

  it("takes content:encoded and dc:date when description and pubDate are missing", () => {
    const [item] = feed.parseFeed(
      rss(`<item>
        <title>Rich</title>
        <content:encoded><![CDATA[<p>Full <strong>article</strong> text</p>]]></content:encoded>
        <dc:date>2026-11-21T10:00:00Z</dc:date>
        <guid>https://news.example/rich</guid>
      </item>`),
    );
    expect(item).toEqual({
      id: "https://news.example/rich",
      title: "Rich",
      description: "Full article text",
      pubDate: "2026-11-21T10:00:00Z",
      link: "https://news.example/rich",
    });
  });

  it("prefers the item's own title over media:title and dc:title", () => {
    const [item] = feed.parseFeed(
      rss(`<item><media:title>Media title</media:title><dc:title>DC title</dc:title><title>Own title</title></item>`),
    );
    expect(item.title).toBe("Own title");
    expect(feed.parseFeed(rss(`<item><media:title>Only media</media:title></item>`))[0].title).toBe("Only media");
  });

  it("uses the link, then the title, as id when there is no guid", () => {
    const items = feed.parseFeed(rss(`<item><title>A</title><link>https://a.example/</link></item><item><title>B</title></item>`));
    expect(items.map((item) => item.id)).toEqual(["https://a.example/", "B"]);
  });

  it("makes ids unique within the answer", () => {
    const items = feed.parseFeed(rss(`<item><title>A</title><guid>1</guid></item>`.repeat(3)));
    expect(items.map((item) => item.id)).toEqual(["1", "1#2", "1#3"]);
  });

  it("passes on only absolute http(s) links", () => {
    const links = feed
      .parseFeed(
        rss(`
        <item><title>1</title><link>javascript:alert(1)</link></item>
        <item><title>2</title><link>/relative/path</link></item>
        <item><title>3</title><link>  HTTPS://Upper.example/x  </link></item>
        <item><title>4</title><link>data:text/html,hi</link></item>
        <item><title>5</title><guid>http://permalink.example/5</guid></item>
        <item><title>6</title><guid isPermaLink="false">http://not-a-link.example/6</guid></item>`),
      )
      .map((item) => item.link);
    expect(links).toEqual(["", "", "HTTPS://Upper.example/x", "", "http://permalink.example/5", ""]);
  });

  it("leaves out items with neither title nor description", () => {
    const items = feed.parseFeed(rss(`<item><link>https://x.example/</link></item><item><description>Only text</description></item>`));
    expect(items).toEqual([{ id: "Only text", title: "", description: "Only text", pubDate: "", link: "" }]);
  });

  it("ignores the channel's own title and description", () => {
    expect(feed.parseFeed(rss(""))).toEqual([]);
  });
});

describe("parseFeed: Atom", () => {
  const atom = (entries: string) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Example feed</title>
  <link href="https://atom.example/" />
  <link rel="self" href="https://atom.example/feed" />
  <updated>2026-11-22T18:30:02Z</updated>
  <id>urn:uuid:feed</id>
  ${entries}
</feed>`;

  it("reads title, summary, dates, the alternate link and id", () => {
    const items = feed.parseFeed(
      atom(`
      <entry>
        <title>Atom-powered robots</title>
        <link rel="edit" href="https://atom.example/edit/1"/>
        <link rel="alternate" type="text/html" href="https://atom.example/2026/robots"/>
        <id>urn:uuid:1225c695</id>
        <updated>2026-11-22T18:30:02Z</updated>
        <published>2026-11-20T08:00:00Z</published>
        <summary>Some text.</summary>
      </entry>
      <entry>
        <title type="html">&lt;b&gt;Bold&lt;/b&gt; &amp;amp; plain</title>
        <link href="https://atom.example/2026/second"/>
        <id>urn:uuid:2</id>
        <updated>2026-11-21T00:00:00Z</updated>
        <content type="html">&lt;p&gt;Escaped &lt;em&gt;HTML&lt;/em&gt; content&lt;/p&gt;</content>
      </entry>`),
    );
    expect(items).toEqual([
      {
        id: "urn:uuid:1225c695",
        title: "Atom-powered robots",
        description: "Some text.",
        pubDate: "2026-11-20T08:00:00Z",
        link: "https://atom.example/2026/robots",
      },
      {
        id: "urn:uuid:2",
        title: "Bold & plain",
        description: "Escaped HTML content",
        pubDate: "2026-11-21T00:00:00Z",
        link: "https://atom.example/2026/second",
      },
    ]);
  });

  it("keeps markup-like text of type text as text, and reads xhtml content", () => {
    const [item] = feed.parseFeed(
      atom(`<entry>
        <title type="text">Use &lt;b&gt; for bold &amp; more</title>
        <id>urn:3</id>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Inline <em>XHTML</em> &amp; more</p></div></content>
      </entry>`),
    );
    expect(item.title).toBe("Use <b> for bold & more");
    expect(item.description).toBe("Inline XHTML & more");
  });

  it("resolves namespace prefixes instead of trusting them", () => {
    const prefixed = `<a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:c="http://purl.org/rss/1.0/modules/content/">
      <a:entry>
        <a:title>Prefixed</a:title>
        <a:id>urn:p</a:id>
        <a:link href="https://p.example/"/>
        <a:summary>Summary</a:summary>
        <a:updated>2026-01-01T00:00:00Z</a:updated>
      </a:entry>
    </a:feed>`;
    expect(feed.parseFeed(prefixed)).toEqual([
      { id: "urn:p", title: "Prefixed", description: "Summary", pubDate: "2026-01-01T00:00:00Z", link: "https://p.example/" },
    ]);

    const customContentPrefix = rss(
      `<item xmlns:body="http://purl.org/rss/1.0/modules/content/"><title>T</title><body:encoded>&lt;p&gt;From body&lt;/p&gt;</body:encoded></item>`,
    );
    expect(feed.parseFeed(customContentPrefix)[0].description).toBe("From body");
  });

  it("reads the Media RSS description of a video entry", () => {
    const youtube = `<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
      <entry>
        <id>yt:video:abc</id>
        <title>A video</title>
        <link rel="alternate" href="https://www.youtube.com/watch?v=abc"/>
        <published>2026-11-01T10:00:00+00:00</published>
        <media:group><media:title>A video</media:title><media:description>What it shows.</media:description></media:group>
      </entry>
    </feed>`;
    expect(feed.parseFeed(youtube)[0]).toMatchObject({
      title: "A video",
      description: "What it shows.",
      link: "https://www.youtube.com/watch?v=abc",
    });
  });
});

describe("parseFeed: RSS 1.0 (RDF)", () => {
  it("reads items in the RSS 1.0 namespace", () => {
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="https://rdf.example/"><title>RDF</title></channel>
      <item rdf:about="https://rdf.example/1"><title>One</title><link>https://rdf.example/1</link><description>First</description><dc:date>2026-11-22</dc:date></item>
    </rdf:RDF>`;
    expect(feed.parseFeed(rdf)).toEqual([
      { id: "https://rdf.example/1", title: "One", description: "First", pubDate: "2026-11-22", link: "https://rdf.example/1" },
    ]);
  });
});

describe("parseFeed: text inside items", () => {
  it("reads CDATA as it is, and markup inside it as HTML", () => {
    const [item] = feed.parseFeed(
      rss(`<item>
        <title><![CDATA[Fish & Chips <i>today</i>]]></title>
        <description><![CDATA[<p>1 &lt; 2 &amp; 3 &gt; 2</p>]]> and <![CDATA[more]]></description>
      </item>`),
    );
    expect(item.title).toBe("Fish & Chips today");
    expect(item.description).toBe("1 < 2 & 3 > 2 and more");
  });

  it("strips entity-encoded HTML, removing scripts, styles and comments with their contents", () => {
    const [item] = feed.parseFeed(
      rss(`<item>
        <title>Safe</title>
        <description>&lt;p&gt;Visible&lt;/p&gt;&lt;script type="text/javascript"&gt;document.cookie&lt;/script&gt;&lt;style&gt;p { color: red }&lt;/style&gt;&lt;!-- secret --&gt;&lt;img src=x onerror=alert(1)&gt;&lt;p&gt;text&lt;/p&gt;</description>
      </item>`),
    );
    expect(item.description).toBe("Visible text");
  });

  it("decodes entities once per level: XML, then HTML", () => {
    const [item] = feed.parseFeed(
      rss(`<item>
        <title>AT&amp;amp;T &amp;mdash; &#8220;quoted&#8221; &amp;#x2014; caf&#xE9;</title>
        <description>Tom &amp;amp;amp; Jerry</description>
      </item>`),
    );
    expect(item.title).toBe("AT&T — “quoted” — café");
    // the description was encoded three times: it still shows one level of encoding
    expect(item.description).toBe("Tom &amp; Jerry");
  });

  it("drops comments in items and collapses whitespace", () => {
    const [item] = feed.parseFeed(rss(`<item><title>  Spaced <!-- note -->\n\n  out\t title </title></item>`));
    expect(item.title).toBe("Spaced out title");
  });

  it("caps titles at 300 and descriptions at 1,000 characters", () => {
    const [item] = feed.parseFeed(rss(`<item><title>${"t".repeat(500)}</title><description>${"d".repeat(5000)}</description></item>`));
    expect(item.title).toHaveLength(300);
    expect(item.description).toHaveLength(1000);
  });
});

describe("parseFeed: limits and malformed input", () => {
  const many = (count: number) =>
    rss(Array.from({ length: count }, (_, i) => `<item><title>Item ${i}</title><guid>g${i}</guid></item>`).join("\n"));

  it("answers at most `limit` items, 30 by default", () => {
    expect(feed.parseFeed(many(50), 5).map((item) => item.id)).toEqual(["g0", "g1", "g2", "g3", "g4"]);
    expect(feed.parseFeed(many(50))).toHaveLength(30);
    expect(feed.parseFeed(many(50), 0)).toEqual([]);
    expect(feed.parseFeed(many(3), 10)).toHaveLength(3);
  });

  it("answers nothing for input that is not a feed", () => {
    for (const input of [undefined, null, 42, {}, "", "plain text", "<html><body><p>Not a feed</p></body></html>", "<<<>>>"]) {
      expect(feed.parseFeed(input, 30)).toEqual([]);
    }
  });

  it("reads what it can of broken XML", () => {
    const broken = `<rss><channel>
      <item><title>Unclosed <b>bold</title><description>Text <p>para</description></item>
      <item><title>Stray < sign & bare ampersand</title></item>
      <item><title>Mismatched</tittle></item>
      <item><title>Cut off`;
    expect(feed.parseFeed(broken).map((item) => item.title)).toEqual([
      "Unclosed bold",
      "Stray < sign & bare ampersand",
      "Mismatched",
      "Cut off",
    ]);
  });

  it("reads an item whose end tag never comes", () => {
    expect(feed.parseFeed("<rss><channel><item><title>First<item><title>Second</title>")).toHaveLength(1);
    expect(feed.parseFeed("<rss><item><description>Never closed &amp; long")).toEqual([
      { id: "Never closed & long", title: "", description: "Never closed & long", pubDate: "", link: "" },
    ]);
  });

  it("reads no further than 512 KB", () => {
    const first = `<rss><channel><item><title>Early</title></item>`;
    const padding = `<!--${"x".repeat(512 * 1024)}-->`;
    expect(feed.parseFeed(`${first}${padding}<item><title>Late</title></item></channel></rss>`).map((item) => item.title)).toEqual([
      "Early",
    ]);
  });

  it("stays fast on hostile input", () => {
    const size = 512 * 1024;
    const inputs = [
      `<rss><item><title>x</title>${"<a '\"".repeat(size / 5)}`,
      `<rss><item><title>x</title><description>${"<div>".repeat(size / 5)}`,
      `<rss><item><title>x</title>${"<a>".repeat(250)}${"</b>".repeat(size / 4)}`,
      `<rss><item><title>x</title>${"<".repeat(size)}`,
      `<rss>${"<title>".repeat(size / 7)}`,
      `<rss><item><title>x</title><description>${"&amp;lt;script&amp;gt;".repeat(size / 24)}</description></item></rss>`,
    ];
    const started = performance.now();
    for (const input of inputs) {
      expect(() => feed.parseFeed(input, 30)).not.toThrow();
    }
    // linear scans take well under a second here; a quadratic one takes minutes
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("stripHtml", () => {
  it("removes tags and keeps words apart where blocks meet", () => {
    expect(feed.stripHtml("<p>One</p><p>Two<br/>Three</p><ul><li>Four</li></ul>")).toBe("One Two Three Four");
    expect(feed.stripHtml("H<b>e</b>l<i>lo</i> <a href='x'>world</a>")).toBe("Hello world");
  });

  it("removes scripts and styles with their contents, and comments", () => {
    expect(
      feed.stripHtml(
        `a<script type="text/javascript">if (x < 1 && y > 2) { document.write("</p>") }</script>b<STYLE>p{}</STYLE>c<!-- <p>hidden</p> -->d`,
      ),
    ).toBe("a b c d");
    expect(feed.stripHtml("before<script>never closed")).toBe("before");
    expect(feed.stripHtml("x<script src='a.js'/>y")).toBe("xy");
  });

  it("keeps a '<' that starts no tag", () => {
    expect(feed.stripHtml("1 < 2 and 3 <> 4 <3")).toBe("1 < 2 and 3 <> 4 <3");
  });

  it("skips '>' inside quoted attribute values", () => {
    expect(feed.stripHtml(`<a title="a > b" href='c>d'>link</a> after`)).toBe("link after");
  });

  it("decodes entities after removing tags, so encoded markup stays text", () => {
    expect(feed.stripHtml("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more")).toBe("<script>alert(1)</script> & more");
  });

  it("collapses whitespace, including no-break spaces, and trims", () => {
    expect(feed.stripHtml("  a \n\t b&nbsp;&nbsp;c\u00a0 ")).toBe("a b c");
  });

  it("caps the text at 1,000 characters without splitting emoji", () => {
    expect(feed.stripHtml(`<p>${"a".repeat(3000)}</p>`)).toHaveLength(1000);
    const emoji = feed.stripHtml("😀".repeat(1500));
    expect(Array.from(emoji)).toHaveLength(1000);
    expect(emoji).toBe("😀".repeat(1000));
  });

  it("answers '' for anything but a non-empty string", () => {
    expect(feed.stripHtml("")).toBe("");
    expect(feed.stripHtml(undefined)).toBe("");
    expect(feed.stripHtml(null)).toBe("");
  });
});

describe("decodeEntities", () => {
  it("decodes the common named references", () => {
    expect(
      feed.decodeEntities(
        "&amp; &lt; &gt; &quot; &apos; &nbsp; &hellip; &mdash; &ndash; &rsquo; &lsquo; &rdquo; &ldquo; &copy; &reg; &trade;",
      ),
    ).toBe("& < > \" ' \u00a0 … — – ’ ‘ ” “ © ® ™");
  });

  it("decodes decimal and hexadecimal references, replacing invalid code points", () => {
    expect(feed.decodeEntities("&#65;&#x42;&#X43; &#128512; &#x1F600; &#0; &#xD800; &#x110000;")).toBe("ABC 😀 😀 \ufffd \ufffd \ufffd");
  });

  it("decodes one level only and leaves unknown names as written", () => {
    // Names are case-sensitive: &AMP; is one of the HTML standard's names (as browsers read it), &Amp; is not.
    expect(feed.decodeEntities("&amp;lt; &unknown; &AMP; &Amp; & alone &amp")).toBe("&lt; &unknown; & &Amp; & alone &");
  });
});
