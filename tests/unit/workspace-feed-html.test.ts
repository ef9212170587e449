// The news feed reader's HTML text and character references, pb_hooks/lib/feed.js (workspace-feed-reader.ts loads it
// into a bare context, as the hooks' runtime runs it).

import { describe, expect, it } from "vitest";
import { useFeedReader } from "./workspace-feed-reader";

const feed = useFeedReader();

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
