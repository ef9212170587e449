// The news feed reader, pb_hooks/lib/feed.js: the text inside items, limits and malformed input (workspace-feed-reader.ts loads it
// into a bare context, as the hooks' runtime runs it).

import { describe, expect, it } from "vitest";
import { rss, useFeedReader } from "./workspace-feed-reader";

const feed = useFeedReader();

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
