// One simulated browser: a cookie jar, the page's CSRF token, the JSON API and the live stream
// (/api/events), exactly as app/lib/api.client.ts and app/features/live/useLiveEvents.client.ts use them.
import { openEventStream, request } from "./http.mjs";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export class WebClient {
  constructor(baseUrl) {
    this.base = baseUrl;
    this.cookies = new Map();
    this.csrf = "";
    this.user = null;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  absorb(headers) {
    // Sign-in, sign-up and sign-out hand the page a CSRF token bound to the new session, as the page's API client reads it.
    const fresh = headers["x-csrf-token"];
    if (typeof fresh === "string" && fresh) this.csrf = fresh;
    for (const line of headers["set-cookie"] ?? []) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** GET / like a page load: sets the CSRF cookie and reads the token from <meta name="csrf-token">. */
  async loadPage() {
    const res = await request(`${this.base}/`, { headers: { Cookie: this.cookieHeader(), Accept: "text/html" } });
    if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
    this.absorb(res.headers);
    const match = /<meta name="csrf-token" content="([^"]*)"/.exec(res.text);
    if (!match) throw new Error("no csrf-token meta tag on the page");
    this.csrf = match[1];
    return res.text;
  }

  /**
   * `headers` are added to the request (a test may pose as a proxy: X-Forwarded-For); `via` makes it
   * (bench/lib/http.mjs `request` unless given, e.g. a sender's own thread, bench/lib/poster.mjs).
   */
  async api(path, body, { method, headers = {}, via = request } = {}) {
    const res = await via(`${this.base}${path}`, {
      method: method ?? (body === undefined ? "GET" : "POST"),
      headers: { Accept: "application/json", "X-CSRF-Token": this.csrf, Cookie: this.cookieHeader(), ...headers },
      body,
    });
    this.absorb(res.headers);
    let parsed;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status >= 300) throw new ApiError(parsed?.message ?? `Request failed (${res.status}) ${path}`, res.status);
    return parsed;
  }

  /** The PocketBase token inside the signed session cookie (Remix cookie session: base64 JSON + "." + signature). */
  pocketBaseToken() {
    const raw = this.cookies.get("chatcrypt_session");
    if (!raw) throw new Error("not signed in");
    const signed = decodeURIComponent(raw);
    const value = signed.slice(0, signed.lastIndexOf("."));
    const json = decodeURIComponent(escape(Buffer.from(value, "base64").toString("binary")));
    return JSON.parse(json).token;
  }

  /**
   * Opens /api/events?channel=<id>. onEvent(liveEvent, receivedAt) gets every parsed event. Resolves
   * with { close } once the server's "sync" event arrived (every subscription active). onEnd runs
   * when the server ends the stream.
   */
  async openEvents(channelId, onEvent, timeoutMs = 60_000, onEnd = () => {}) {
    let resolveSync;
    const synced = new Promise((r) => (resolveSync = r));
    const url = `${this.base}/api/events${channelId ? `?channel=${encodeURIComponent(channelId)}` : ""}`;
    const stream = openEventStream(
      url,
      { Cookie: this.cookieHeader() },
      ({ event, data }) => {
        const at = performance.now();
        if (event !== "message") return;
        let parsed;
        try {
          parsed = JSON.parse(data);
        } catch {
          return;
        }
        if (parsed.type === "sync") resolveSync();
        onEvent(parsed, at);
      },
      onEnd,
    );
    let timer;
    try {
      await stream.opened;
      await Promise.race([
        synced,
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no sync within ${timeoutMs} ms`)), timeoutMs))),
      ]);
    } catch (error) {
      stream.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return stream;
  }
}
