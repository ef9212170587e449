// The news feed reader, pb_hooks/lib/feed.js: RSS 2.0, Atom and RSS 1.0 (workspace-feed-reader.ts loads it
// into a bare context, as the hooks' runtime runs it).

import { describe, expect, it } from "vitest";
import { rss, useFeedReader } from "./workspace-feed-reader";

const feed = useFeedReader();

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
