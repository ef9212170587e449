import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createChannel, person } from "./helpers";

const csrf = (page: Page) => page.locator('meta[name="csrf-token"]').getAttribute("content");

// The web server's own routes: bad input gets a clear 4xx, never a 5xx or a stack trace.
test("upload and API routes answer malformed or unauthorised requests with clear 4xx messages", async ({ browser }) => {
  const alice = await person(browser, "alice");
  const mallory = await person(browser, "mallory");
  const channelId = await createChannel(alice.page, "Validation", "pw-validation");
  const token = (await csrf(alice.page))!;
  expect(token.length).toBeGreaterThan(10);
  const path = `/api/channels/${channelId}/attachments`;
  const headers = { "X-CSRF-Token": token };

  const cases: { name: string; send: () => ReturnType<Page["request"]["post"]>; status: number; message: RegExp }[] = [
    {
      name: "no CSRF token",
      send: () => alice.page.request.post(path, { multipart: { a: "b" } }),
      status: 403,
      message: /session has expired/,
    },
    {
      name: "JSON instead of multipart",
      send: () => alice.page.request.post(path, { headers, data: { a: 1 } }),
      status: 400,
      message: /multipart\/form-data/,
    },
    {
      name: "broken multipart",
      send: () =>
        alice.page.request.post(path, {
          headers: { ...headers, "Content-Type": "multipart/form-data; boundary=xyz" },
          data: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated',
        }),
      status: 400,
      message: /./,
    },
    {
      name: "missing fields",
      send: () => alice.page.request.post(path, { headers, multipart: { messageId: "x" } }),
      status: 400,
      message: /./,
    },
    {
      name: "not a channel id",
      send: () => alice.page.request.post(`/api/channels/nope/attachments`, { headers, multipart: { a: "b" } }),
      status: 400,
      message: /UUID/,
    },
    {
      name: "message JSON not an object",
      send: () => alice.page.request.post(`/api/channels/${channelId}/messages`, { headers, data: "[1,2" }),
      status: 400,
      message: /JSON/,
    },
    {
      name: "empty envelope",
      send: () => alice.page.request.post(`/api/channels/${channelId}/messages`, { headers, data: { encryptedContent: "" } }),
      status: 400,
      message: /./,
    },
    {
      name: "join with junk",
      send: () => alice.page.request.post(`/api/channels/join`, { headers, data: { channelId: 5 } }),
      status: 400,
      message: /./,
    },
    { name: "profiles without ids", send: () => alice.page.request.get(`/api/profiles`), status: 400, message: /ids/ },
    {
      name: "bad attachment id",
      send: () => alice.page.request.get(`/api/attachments/..%2F..%2Fetc`),
      status: 400,
      message: /Invalid attachment id/,
    },
  ];
  for (const c of cases) {
    const response = await c.send();
    expect(response.status(), c.name).toBe(c.status);
    const body = (await response.json()) as { message: string };
    expect(body.message, c.name).toMatch(c.message);
    expect(JSON.stringify(body), c.name).not.toMatch(/at \w+ \(|node_modules|Error:/);
  }

  // A non-member, with a valid token of their own, cannot post or upload into the channel.
  const malloryHeaders = { "X-CSRF-Token": (await csrf(mallory.page))! };
  const post = await mallory.page.request.post(`/api/channels/${channelId}/messages`, {
    headers: malloryHeaders,
    data: { encryptedContent: "x".repeat(50) },
  });
  expect(post.status()).toBe(403);
  const events = await mallory.page.request.get(`/api/channels/${channelId}/messages`);
  expect((await events.json()).messages).toEqual([]);

  // Signed out: every API route refuses.
  const anonymous = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const response = await anonymous.request.get(`/api/channels`);
  expect(response.status()).toBe(401);
  await anonymous.close();
  await alice.context.close();
  await mallory.context.close();
});
