import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { createChannel, joinAndOpen, log, message, person, send } from "./helpers";

// Markdown in messages (app/features/markdown): what renders, what never runs, what is never fetched.

test("Markdown: highlighted code with Copy, bold, quote and list on the other screen; the composer's shortcuts", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const password = `markdown-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Markdown", password);
  await joinAndOpen(bob.page, channelId, password, "Markdown");

  const code = "const answer: number = 42;\nfunction greet(name: string) {\n  return `hello ${name}`;\n}";
  await send(alice.page, "Here is the fix:\n```ts\n" + code + "\n```");
  await send(alice.page, "**bold words** and _italic_\n\n> a quoted line\n\n- first item\n- second item");

  const block = log(bob.page).locator(".code-block").filter({ hasText: "const answer" });
  await expect(block.locator("code.hljs .hljs-keyword").first()).toBeVisible();
  await expect(block.locator("pre")).toHaveCSS("white-space", "pre");
  await block.getByRole("button", { name: "Copy code (ts)" }).click();
  await expect(block.getByRole("button", { name: "Copy code (ts)" })).toHaveText("Copied");
  expect(await bob.page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  await expect(log(bob.page).locator("strong", { hasText: "bold words" })).toBeVisible();
  await expect(log(bob.page).locator("em", { hasText: "italic" })).toBeVisible();
  await expect(log(bob.page).locator("blockquote", { hasText: "a quoted line" })).toBeVisible();
  await expect(log(bob.page).getByRole("listitem").filter({ hasText: "second item" })).toBeVisible();

  // Ctrl+B marks the selection bold; Enter inside an open ``` block adds a line instead of sending.
  const box = alice.page.getByLabel("Message", { exact: true });
  await box.fill("strong");
  await box.selectText();
  await box.press("Control+b");
  await expect(box).toHaveValue("**strong**");
  await box.fill("```");
  await box.press("End");
  await box.press("Enter");
  await box.pressSequentially("let x = 1;");
  await expect(box).toHaveValue("```\nlet x = 1;");
  await box.press("Enter");
  await box.pressSequentially("```");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  await expect(log(bob.page).locator(".code-block", { hasText: "let x = 1;" })).toBeVisible();

  await alice.context.close();
  await bob.context.close();
});

test("Markdown: an XSS corpus runs nothing and loads nothing from outside; a remote image is not fetched", async ({ browser }) => {
  let fetched = 0;
  const tracker = http.createServer((_req, res) => {
    fetched += 1;
    res.end("x");
  });
  await new Promise<void>((resolve) => tracker.listen(0, "127.0.0.1", resolve));
  const trackerUrl = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;

  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  const outside: string[] = [];
  bob.page.on("request", (request) => {
    if (!request.url().startsWith(process.env.E2E_BASE_URL!)) outside.push(request.url());
  });
  const password = `xss-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Hostile Markdown", password);
  await joinAndOpen(bob.page, channelId, password, "Hostile Markdown");

  const corpus = [
    "<script>window.__xss = 1</script> script tag",
    "[click me](javascript:window.__xss=2)",
    '<img src=x onerror="window.__xss=3"> img tag',
    '<svg onload="window.__xss=4"><circle r="5"/></svg> svg tag',
    "&lt;script&gt;window.__xss=5&lt;/script&gt; entities",
    "[[nested](javascript:window.__xss=6)](https://example.com/ok)",
    '**bold <b onmouseover="window.__xss=7">x</b>**',
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[mixed case](JaVaScRiPt:window.__xss=9)",
    `![tracking pixel](${trackerUrl}/pixel.png)`,
    `<img src="${trackerUrl}/raw.png"> raw image`,
  ];
  for (const text of corpus) await send(alice.page, text);
  await expect(log(bob.page).getByText("raw image")).toBeVisible();
  await expect(log(bob.page).getByText("Image: tracking pixel")).toBeVisible();
  // the entities are text: the reader sees them as written, nothing runs
  await expect(log(bob.page).getByText("<script>window.__xss=5</script> entities")).toBeVisible();

  await bob.page.waitForLoadState("networkidle");
  expect(await bob.page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  const messages = log(bob.page);
  await expect(messages.locator("script, img, svg, iframe, object, embed")).toHaveCount(0);
  for (const href of await messages.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? "")))
    expect(href).toMatch(/^https?:\/\//);
  await messages.locator("b, strong").first().hover();
  expect(await bob.page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(fetched).toBe(0);
  expect(outside).toEqual([]);

  tracker.close();
  await alice.context.close();
  await bob.context.close();
});

test("Markdown opened again: drawn as first shown, code keeps its box when coloured, an edit shows its new version", async ({
  browser,
}) => {
  const alice = await person(browser, "alice");
  const stamp = Date.now();
  const me = alice.user.username;
  await createChannel(alice.page, "Elsewhere", `elsewhere-${stamp}`);
  await createChannel(alice.page, "Markdown again", `again-${stamp}`);
  const code =
    "export function sum(values: number[]): number {\n  let total = 0; // each one\n  for (const v of values) total += v;\n  return total;\n}";
  await send(alice.page, "Sum:\n```ts\n" + code + "\n```");
  await send(alice.page, `**first words** for @${me} with [a link](https://example.com/doc)\n\n- one\n- two\n\n> quoted`);

  // The colours come in idle time on the same box: the code without them lays out the same.
  const block = log(alice.page).locator(".code-block").filter({ hasText: "export function sum" });
  await expect(block.locator("code.hljs .hljs-keyword").first()).toBeVisible();
  const boxes = await block.locator("pre").evaluate((pre) => {
    const plain = pre.cloneNode(true) as HTMLElement;
    const plainCode = plain.querySelector("code")!;
    plainCode.textContent = plainCode.textContent ?? "";
    plainCode.className = "language-ts";
    pre.after(plain);
    const size = (e: Element) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height, e.scrollWidth];
    const sizes = { coloured: size(pre), plain: size(plain) };
    plain.remove();
    return sizes;
  });
  expect(boxes.plain).toEqual(boxes.coloured);

  const shown = async () => {
    const body = message(alice.page, "a link").locator(".markdown");
    await expect(body.locator("strong")).toHaveText(/words/);
    await expect(body.locator("mark.mention-own")).toHaveText(`@${me}`);
    await expect(body.getByRole("link", { name: "a link" })).toHaveAttribute("href", "https://example.com/doc");
    await expect(body.getByRole("listitem")).toHaveText(["one", "two"]);
    await expect(body.locator("blockquote")).toHaveText("quoted");
    return body;
  };
  await shown();
  const reopen = async () => {
    await alice.page.getByRole("button", { name: "# Elsewhere", exact: true }).click();
    await expect(alice.page.getByRole("heading", { name: "# Elsewhere" })).toBeVisible();
    await alice.page.getByRole("button", { name: "# Markdown again", exact: true }).click();
    await expect(alice.page.getByRole("heading", { name: "# Markdown again" })).toBeVisible();
  };
  await reopen();
  await expect((await shown()).locator("strong")).toHaveText("first words");
  await expect(block.locator("code.hljs .hljs-keyword").first()).toBeVisible();
  await block.getByRole("button", { name: "Copy code (ts)" }).click();
  await expect(block.getByRole("button", { name: "Copy code (ts)" })).toHaveText("Copied");
  expect(await alice.page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  // An edit is a new version: shown at once, and again after the conversation is opened again.
  const edited = message(alice.page, "a link");
  await edited.hover();
  await edited.getByRole("button", { name: "Edit" }).click();
  await alice.page
    .getByLabel("Edit message")
    .fill(`**edited words** for @${me} with [a link](https://example.com/doc)\n\n- one\n- two\n\n> quoted`);
  await alice.page.getByLabel("Edit message").press("Enter");
  await expect((await shown()).locator("strong")).toHaveText("edited words");
  await reopen();
  await expect((await shown()).locator("strong")).toHaveText("edited words");
  await expect(log(alice.page).getByText("first words")).toHaveCount(0);

  await alice.context.close();
});
