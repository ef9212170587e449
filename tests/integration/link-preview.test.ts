// POST /api/chat/link-preview against the real PocketBase: pages served by a loopback HTTP server
// that the test allowlists with LINK_PREVIEW_ALLOW_HOSTS (the only way past the SSRF guard).

import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, postJson, signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

const ROUTE = "/api/chat/link-preview";

// A 1x1 PNG.
const PIXEL_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const PIXEL = Buffer.from(PIXEL_BASE64, "base64");
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

/** A fixture of pocketbase/testdata, shared with the Go tests of the parser. */
const fixture = (name: string) => readFileSync(new URL(`../../pocketbase/testdata/${name}`, import.meta.url));

interface Seen {
  path: string;
  userAgent: string;
  cookie: string | undefined;
}

/** A loopback site with the pages the tests preview; it records every request it gets. */
function startSite(): Promise<{ server: http.Server; origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const html = (body: string, type = "text/html; charset=utf-8") => ({ type, body: Buffer.from(body, "utf8") });

  const pages: Record<string, () => { type: string; body: Buffer; status?: number }> = {
    "/articles/og": () =>
      html(`<!doctype html><html><head>
        <meta property="og:title" content="Quarterly report">
        <meta property="og:description" content="Numbers for Q3, audited.">
        <meta property="og:image" content="../img/pixel.png">
        <title>Ignored because og:title wins</title>
        <meta name="description" content="Ignored because og:description wins">
      </head><body>Hello</body></html>`),
    "/img/pixel.png": () => ({ type: "image/png", body: PIXEL }),
    "/articles/2026/og-and-twitter.html": () => ({ type: "text/html; charset=utf-8", body: fixture("page-og-twitter.html") }),
    "/articles/images/og.png": () => ({ type: "image/png", body: PIXEL }),
    "/twitter-card": () =>
      html(`<title>Plain title</title><meta name="twitter:title" content="Card title">
        <meta name="twitter:description" content="Card text"><meta name="twitter:image" content="img/pixel.png">`),
    "/latin1-mislabelled": () => ({ type: "text/html; charset=utf-8", body: fixture("page-latin1-meta.html") }),
    "/tricky": () => html(fixture("page-tricky.html").toString("utf8")),
    "/real.png": () => ({ type: "image/png", body: PIXEL }),
    "/title-only": () =>
      html(`<html><head><TITLE>
          Plain   title
        </TITLE><meta name="description" content="From the description tag."></head></html>`),
    "/entities": () =>
      html(`<head><meta property="og:title" content="Caf&eacute; &amp; Bar &#8212; &#x1F600; &lt;b&gt; &amp;lt; &#0;">
        <meta property="og:description" content="&quot;Quoted&quot; &hellip; it&#39;s &copy 2025 &unknown; AT&T"></head>`),
    "/latin1": () => ({ type: "text/html; charset=iso-8859-1", body: Buffer.from("<title>Caf\xe9 cr\xe8me</title>", "latin1") }),
    "/meta-charset": () => ({
      type: "text/html",
      body: Buffer.concat([Buffer.from('<meta charset="windows-1252"><title>'), Buffer.from([0x93, 0x51, 0x94]), Buffer.from("</title>")]),
    }),
    "/tolerant": () =>
      html(`<!-- <meta property="og:title" content="From a comment"> -->
        <script>document.write('<title>From a script</title><meta property="og:title" content="x">')</script>
        <style>/* <title>From a style</title> */</style>
        <META CONTENT='Unusual "order" &amp; quotes' PROPERTY=og:title>
        <meta name=description content=unquoted/>
        <title data-x=">">Second title</title>`),
    "/long": () => html(`<title>${"T".repeat(500)}</title><meta name="description" content="${"d".repeat(1500)}">`),
    "/svg-image": () => html(`<title>SVG image</title><meta property="og:image" content="/img/drawing.svg">`),
    "/img/drawing.svg": () => ({ type: "image/svg+xml", body: Buffer.from(SVG) }),
    "/png-named-jpeg": () => html(`<title>Mislabelled</title><meta property="og:image" content="/img/labelled.jpg">`),
    "/img/labelled.jpg": () => ({ type: "image/jpeg", body: PIXEL }),
    "/fake-image": () => html(`<title>Fake image</title><meta property="og:image" content="/img/fake.png">`),
    "/img/fake.png": () => ({ type: "image/png", body: Buffer.from("<html>not an image</html>") }),
    "/big-image": () => html(`<title>Big image</title><meta property="og:image" content="/img/big.png">`),
    "/img/big.png": () => ({ type: "image/png", body: Buffer.concat([PIXEL, Buffer.alloc(1024 * 1024 + 1)]) }),
    "/blocked-image": () => html(`<title>Blocked image</title><meta property="og:image" content="http://127.0.0.1:1/secret.png">`),
    "/hostile": () =>
      html(`<title>Hostile</title>${"<meta a='b ".repeat(20_000)}${("<meta content " + "a ".repeat(2000) + ">").repeat(60)}`),
    "/no-meta": () => html("<html><body><p>Nothing to preview</p></body></html>"),
    "/json": () => ({ type: "application/json", body: Buffer.from('{"title":"not html"}') }),
    "/text": () => ({ type: "text/plain", body: Buffer.from("<title>plain text</title>") }),
    "/png": () => ({ type: "image/png", body: PIXEL }),
    "/missing": () => ({ type: "text/html", body: Buffer.from("<title>Not found</title>"), status: 404 }),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site.test");
    seen.push({ path: url.pathname, userAgent: String(req.headers["user-agent"] ?? ""), cookie: req.headers.cookie });
    if (url.pathname === "/go") {
      res.writeHead(302, { Location: url.searchParams.get("to") ?? "/", "Set-Cookie": "session=abc; Path=/" });
      res.end();
      return;
    }
    const page = pages[url.pathname];
    if (!page) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("not found");
      return;
    }
    const { type, body, status } = page();
    res.writeHead(status ?? 200, { "Content-Type": type, "Content-Length": body.length });
    res.end(body);
  });

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, seen });
    });
  });
}

let site: Awaited<ReturnType<typeof startSite>>;
let pb: RunningPocketBase;
let user: TestUser;

beforeAll(async () => {
  site = await startSite();
  pb = await startPocketBase({ env: { LINK_PREVIEW_ALLOW_HOSTS: new URL(site.origin).host } });
  user = await signUpUser(pb.url);
});

afterAll(async () => {
  await pb?.stop();
  await new Promise((resolve) => site?.server.close(resolve));
});

async function preview(url: unknown) {
  const res = await postJson(pb.url, ROUTE, { url }, user.token);
  expect(res.status, res.text).toBe(200);
  return res.json as { success: boolean; title?: string; description?: string; image?: string; message?: string };
}

describe("link previews of allowlisted pages", () => {
  it("reads og tags and returns the og:image as a data URL, resolved against the final URL", async () => {
    const result = await preview(`${site.origin}/go?to=/articles/og`);
    expect(result).toEqual({
      success: true,
      title: "Quarterly report",
      description: "Numbers for Q3, audited.",
      image: `data:image/png;base64,${PIXEL_BASE64}`,
    });

    const image = site.seen.filter((s) => s.path === "/img/pixel.png");
    expect(image).toHaveLength(1);
    for (const request of site.seen) {
      expect(request.userAgent).toBe("ChatCrypt-LinkPreview/1.0");
      expect(request.cookie).toBeUndefined(); // the redirect set one: it is not sent back
    }
  });

  it("prefers og: tags to twitter: tags to plain ones, resolving the image against the page", async () => {
    expect(await preview(`${site.origin}/articles/2026/og-and-twitter.html`)).toEqual({
      success: true,
      title: "Open Graph title",
      description: "Twitter description wins over the plain one",
      image: `data:image/png;base64,${PIXEL_BASE64}`,
    });
    expect(site.seen.some((s) => s.path === "/articles/images/og.png")).toBe(true);

    expect(await preview(`${site.origin}/twitter-card`)).toEqual({
      success: true,
      title: "Card title",
      description: "Card text",
      image: `data:image/png;base64,${PIXEL_BASE64}`,
    });
  });

  it("reads tags as browsers do: not in comments, scripts, templates, SVG or textareas", async () => {
    expect(await preview(`${site.origin}/tricky`)).toEqual({
      success: true,
      title: "The & real title",
      description: "After <body>, still read",
      image: `data:image/png;base64,${PIXEL_BASE64}`,
    });
    expect(site.seen.some((s) => s.path === "/noscript.png" || s.path === "/style.png")).toBe(false);
  });

  it("falls back to <title> and meta description, whitespace collapsed", async () => {
    expect(await preview(`${site.origin}/title-only`)).toEqual({
      success: true,
      title: "Plain title",
      description: "From the description tag.",
      image: "",
    });
  });

  it("decodes character references once", async () => {
    const result = await preview(`${site.origin}/entities`);
    expect(result.success).toBe(true);
    expect(result.title).toBe("Café & Bar — 😀 <b> &lt; \ufffd");
    expect(result.description).toBe('"Quoted" … it\'s © 2025 &unknown; AT&T');
  });

  it("decodes the page's charset from the header or a meta tag", async () => {
    expect((await preview(`${site.origin}/latin1`)).title).toBe("Café crème");
    expect((await preview(`${site.origin}/meta-charset`)).title).toBe("\u201cQ\u201d");
    // Labelled UTF-8 but not UTF-8: the page's own <meta charset> is right.
    expect(await preview(`${site.origin}/latin1-mislabelled`)).toEqual({
      success: true,
      title: "Café crème brûlée",
      description: "Prix : 5 €",
      image: "",
    });
  });

  it("ignores comments, scripts and styles and accepts unusual markup", async () => {
    expect(await preview(`${site.origin}/tolerant`)).toEqual({
      success: true,
      title: 'Unusual "order" & quotes',
      description: "unquoted/",
      image: "",
    });
  });

  it("reads a hostile 512 KB page quickly", async () => {
    const started = Date.now();
    expect(await preview(`${site.origin}/hostile`)).toMatchObject({ success: true, title: "Hostile" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("caps the title at 300 and the description at 1000 characters", async () => {
    const result = await preview(`${site.origin}/long`);
    expect(result.title).toBe("T".repeat(300));
    expect(result.description).toBe("d".repeat(1000));
  });

  it("answers an empty image for SVG, fake, oversized or refused images", async () => {
    for (const path of ["/svg-image", "/fake-image", "/big-image", "/blocked-image"]) {
      const result = await preview(`${site.origin}${path}`);
      expect(result.success, path).toBe(true);
      expect(result.image, path).toBe("");
    }
  });

  it("labels an image by its bytes, not by the server's content type", async () => {
    expect((await preview(`${site.origin}/png-named-jpeg`)).image).toBe(`data:image/png;base64,${PIXEL_BASE64}`);
  });

  it("answers success:false for pages that are not HTML, missing or empty", async () => {
    for (const path of ["/json", "/text", "/png"]) {
      expect(await preview(`${site.origin}${path}`), path).toEqual({
        success: false,
        message: "The link is not an HTML page.",
      });
    }
    expect(await preview(`${site.origin}/missing`)).toEqual({ success: false, message: "The page could not be fetched." });
    expect(await preview(`${site.origin}/no-meta`)).toEqual({
      success: false,
      message: "The page has no title or description.",
    });
  });
});

describe("requests the route refuses", () => {
  it("answers 401 without a signed-in user", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const res = await postJson(pb.url, ROUTE, { url: `${site.origin}/title-only` }, token);
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ message: "Not authenticated" });
    }
  });

  it("answers 400 JSON for malformed bodies and URLs", async () => {
    const cases: { body: string | undefined; contentType?: string; message: string }[] = [
      { body: undefined, message: "url must be a non-empty string." },
      { body: "{}", message: "url must be a non-empty string." },
      { body: "not json", message: "Request body must be a JSON object." },
      { body: '{"url":', message: "Request body must be a JSON object." },
      { body: "[]", message: "Request body must be a JSON object." },
      { body: '"http://example.com/"', message: "Request body must be a JSON object." },
      { body: JSON.stringify({ url: `${site.origin}/` }), contentType: "text/plain", message: "Request body must be a JSON object." },
      { body: JSON.stringify({ url: 42 }), message: "url must be a non-empty string." },
      { body: JSON.stringify({ url: ["http://example.com/"] }), message: "url must be a non-empty string." },
      { body: JSON.stringify({ url: "   " }), message: "url must be a non-empty string." },
      { body: JSON.stringify({ url: `http://example.com/${"a".repeat(2048)}` }), message: "url must be at most 2048 characters." },
      { body: JSON.stringify({ url: "example.com" }), message: "url must be an http or https URL." },
      { body: JSON.stringify({ url: "ftp://example.com/" }), message: "url must be an http or https URL." },
      { body: JSON.stringify({ url: "http:///path" }), message: "url must be an http or https URL." },
      { body: JSON.stringify({ url: "http://999.1.1.1/" }), message: "url is not a valid URL." },
      { body: JSON.stringify({ url: "http://user:secret@example.com/" }), message: "url is not a valid URL." },
      { body: JSON.stringify({ url: "http://exa mple.com/" }), message: "url is not a valid URL." },
    ];
    for (const c of cases) {
      const res = await post(pb.url, ROUTE, c.body, { token: user.token, contentType: c.contentType });
      expect(res.status, `${c.body}: ${res.text}`).toBe(400);
      expect(res.contentType).toContain("application/json");
      expect(res.json, String(c.body)).toMatchObject({ message: c.message });
    }
  });

  it("answers 413 for an oversize body", async () => {
    const res = await post(pb.url, ROUTE, JSON.stringify({ url: `http://example.com/${"a".repeat(10_000)}` }), {
      token: user.token,
    });
    expect(res.status).toBe(413);
  });
});
