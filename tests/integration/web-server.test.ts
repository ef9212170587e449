// The production web server (server.mjs) in front of a real PocketBase and a real SMTP server on
// loopback: email verification through the web routes, the client address PocketBase sees, and
// what reaches the logs. The web server trusts one proxy (TRUST_PROXY=1), so a test poses as that
// proxy and chooses the browser's address in X-Forwarded-For.

import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../ports";
import { startCaptureServer, type CaptureServer } from "./smtp";
import {
  createChannel,
  postMessage,
  signUpUser,
  startPocketBase,
  superuserClient,
  type RunningPocketBase,
  type TestUser,
} from "./pocketbase";
import { WebClient, signedInClient, startWebServer, type WebServer } from "./web-session";

let smtp: CaptureServer;
let pb: RunningPocketBase;
let web: WebServer;
let admin: PocketBase;
let appUrl: string;

beforeAll(async () => {
  smtp = await startCaptureServer();
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  pb = await startPocketBase({ env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: appUrl } });
  web = await startWebServer(pb.url, { port, env: { TRUST_PROXY: "1" } });
  admin = await superuserClient(pb.url, pb.superuser);
}, 180_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
  await smtp?.stop();
});

const webLog = () => readFileSync(join(web.logDir, "web.log"), "utf8");

/** The status and message of a failed call, or 200 and "" for a success. */
async function outcome(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
    return { status: 200, message: "" };
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    if (typeof status !== "number") throw error;
    return { status, message };
  }
}

const notification = { channelName: "general", senderUsername: "alice_w", messageContent: "hello there", mention: false };

describe("email verification", () => {
  let user: TestUser;
  let browser: WebClient;

  beforeAll(async () => {
    user = await signUpUser(pb.url);
    await user.pb.collection("users").update(user.id, { email_notifications_enabled: true });
    browser = await signedInClient(web.url, user);
  });

  it("notify-email answers 403 while the address is not verified", async () => {
    expect(await outcome(browser.api("/api/notify-email", notification))).toEqual({
      status: 403,
      message: "Verify your email address before turning on email notifications.",
    });
    // only the link mailed at sign-up
    expect(smtp.mailsTo(user.email).map((m) => m.subject)).toEqual(["Confirm your email address for ChatCrypt"]);
  });

  it("emails a link to the web app's /verify-email page, which verifies the address; then notifications arrive", async () => {
    expect(await browser.api("/api/auth/verify-email")).toEqual({ email: user.email, verified: false });
    expect(await browser.api("/api/auth/verify-email", {})).toEqual({ email: user.email, verified: false, sent: true });

    // the link sent at sign-up, and the one asked for here: the address is pending until one is opened (ADR 82)
    const mail = await vi.waitFor(
      () => {
        const found = smtp.mailsTo(user.email);
        expect(found).toHaveLength(2);
        return found[1];
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(mail.subject).toBe("Confirm your email address for ChatCrypt");
    const link = /href="([^"]+)"/.exec(mail.html)?.[1] ?? "";
    expect(link.startsWith(`${appUrl}/verify-email#token=`), link).toBe(true);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get("token") ?? "";

    // the page the link opens (the token stays in the fragment, which is never sent)
    const page = await fetch(new URL(link).href.split("#")[0], { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Email verification");

    // its script posts the token; it works without a session, from any browser
    const elsewhere = new WebClient(web.url);
    await elsewhere.loadPage();
    expect(await outcome(elsewhere.api("/api/auth/confirm-verification", { token: "not-a-token" }))).toEqual({
      status: 400,
      message: "This verification link is invalid or has expired. Ask for a new one in Notification Settings.",
    });
    expect(await elsewhere.api("/api/auth/confirm-verification", { token })).toEqual({ verified: true });

    expect(await browser.api("/api/auth/verify-email")).toEqual({ email: user.email, verified: true });
    const { user: signedIn } = await browser.api("/api/auth/signin", { email: user.email, loginSecret: user.password });
    expect(signedIn.verified).toBe(true);

    expect(await browser.api("/api/notify-email", notification)).toEqual({ sent: true });
    expect(smtp.mailsTo(user.email).map((m) => m.subject)).toContain("New message in #general");
  });

  it("the session user says whether the address is verified", async () => {
    const fresh = await signUpUser(pb.url);
    const other = new WebClient(web.url);
    await other.loadPage();
    const { user: signedIn } = await other.api("/api/auth/signin", { email: fresh.email, loginSecret: fresh.password });
    expect(signedIn.verified).toBe(false);
  });

  it("asking for a verification email needs a session and the CSRF token", async () => {
    const anonymous = new WebClient(web.url);
    await anonymous.loadPage();
    expect((await outcome(anonymous.api("/api/auth/verify-email", {}))).status).toBe(401);
    expect((await outcome(anonymous.api("/api/auth/verify-email"))).status).toBe(401);

    const fresh = await signedInClient(web.url, await signUpUser(pb.url));
    fresh.csrf = "forged";
    expect((await outcome(fresh.api("/api/auth/verify-email", {}))).status).toBe(403);
  });
});

describe("the client address PocketBase sees", () => {
  it("groups IPv6 addresses by /64 for PocketBase's limit of sign-in attempts", async () => {
    // (a signed-in person's requests count against their account, tests/integration/limits-per-account.test.ts;
    // a guest's against their address)
    const visitor = new WebClient(web.url);
    await visitor.loadPage();
    const signIn = (ip: string) =>
      outcome(
        visitor.api(
          "/api/auth/signin",
          { email: `nobody-${randomUUID()}@example.test`, loginSecret: randomBytes(32).toString("base64url") },
          { headers: { "X-Forwarded-For": ip } },
        ),
      );

    // PocketBase allows 10 sign-in attempts a minute per client address
    for (let i = 0; i < 10; i++) {
      const answer = await signIn(i % 2 === 0 ? "2001:db8:1:2::a" : "2001:db8:1:2:ffff:ffff:ffff:ffff");
      expect(answer.status, `sign-in ${i + 1}: ${answer.message}`).toBe(400);
    }
    expect((await signIn("2001:db8:1:2:0:0:0:b")).status).toBe(429);
    // another /64 has its own budget
    expect((await signIn("2001:db8:1:3::a")).status).toBe(400);
  });

  it("file downloads carry the browser's address, like every other call", async () => {
    const user = await signUpUser(pb.url);
    const channel = await createChannel(user);
    const message = await postMessage(user, channel.id);
    const form = new FormData();
    form.set("message", message.id);
    form.set("channel", channel.id);
    form.set("uploaded_by", user.id);
    form.set("file_name", randomBytes(24).toString("base64url"));
    form.set("file_size", "36");
    form.set("file_type", "application/pdf");
    form.set("storage_path", `${user.id}/${channel.id}/${randomUUID()}.pdf`);
    form.set("file", new Blob([randomBytes(64)]), "encrypted.bin");
    const attachment = await user.pb.collection("file_attachments").create(form);
    const preview = new FormData();
    preview.set("message", message.id);
    preview.set("channel", channel.id);
    for (const field of ["url", "title", "description", "image_url"]) preview.set(field, randomBytes(30).toString("base64url"));
    preview.set("image", new Blob([randomBytes(200)]), "preview.bin");
    const linkPreview = await user.pb.collection("link_previews").create(preview);

    const browser = await signedInClient(web.url, user);
    const download = async (path: string, ip: string) => {
      const res = await fetch(`${web.url}${path}`, { headers: { Cookie: browser.cookieHeader(), "X-Forwarded-For": ip } });
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
    };
    await download(`/api/attachments/${attachment.id}`, "198.51.100.23");
    await download(`/api/previews/${linkPreview.id}/image`, "2001:db8:77:1:2:3:4:5");

    // PocketBase writes its request log in batches; file URLs name the collection by id
    const fileRequest = async (recordId: string) => {
      const filter = admin.filter("data.url ~ {:prefix} && data.url ~ {:record}", { prefix: "/api/files/", record: `/${recordId}/` });
      return (await admin.logs.getList(1, 1, { filter })).items[0]?.data.userIP;
    };
    await vi.waitFor(
      async () => {
        expect(await fileRequest(attachment.id)).toBe("198.51.100.23");
        // PocketBase writes IPv6 addresses in full; the web server forwards the /64 network
        expect(await fileRequest(linkPreview.id)).toBe("2001:0db8:0077:0001:0000:0000:0000:0000");
      },
      { timeout: 15_000, interval: 500 },
    );
  });
});

describe("the key of an invite link in the query form", () => {
  it("reaches no log of the web server and never reaches PocketBase", async () => {
    const canary = `CANARY${randomBytes(6).toString("hex")}`;
    const invite = `invite=${randomUUID()}&key=${canary}`;
    const requests = [
      `/?${invite}`, // the spec's invite link
      `/?key=${canary}&${invite.split("&")[0]}`,
      `/?invite=x&%6Bey=${canary}`, // percent-encoded name: URLSearchParams reads it as "key"
      `/no-such-page?${invite}`, // logged: "No route matches URL"
      `/%?${invite}`, // logged: a URIError
      `/?_data=routes%2Fnope&${invite}`, // logged: a route mismatch
    ];
    for (const path of requests) {
      const res = await fetch(`${web.url}${path}`, { headers: { Accept: "text/html" } });
      await res.arrayBuffer();
      expect(res.status, path).toBeLessThan(500);
    }
    // a signed-in call that PocketBase answers
    const browser = await signedInClient(web.url, await signUpUser(pb.url));
    expect(await browser.api(`/api/channels?${invite}`)).toEqual({ channels: [] });

    await vi.waitFor(
      async () => {
        // the requests were logged (the server's errors, PocketBase's request log), without the key
        expect(webLog()).toContain('No route matches URL "/no-such-page"');
        const listed = await admin.logs.getList(1, 1, { filter: 'data.url ~ "/api/collections/channels/records"' });
        expect(listed.totalItems).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 500 },
    );
    expect(webLog()).not.toContain(canary);
    expect(pb.logs()).not.toContain(canary);
    expect((await admin.logs.getList(1, 1, { filter: admin.filter("data.url ~ {:c} || message ~ {:c}", { c: canary }) })).totalItems).toBe(
      0,
    );
  });
});
