// A caller of PocketBase's device-link routes for tests/integration/device-link.test.ts: the method,
// the route, a JSON body, the caller's token, and the browser and system the web server would forward.

import { proxyHeaders } from "../../scripts/lib/pocketbase.mjs";

export const AGENT = "Firefox on Android";

export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

export const pbCaller =
  (url: string) =>
  async (method: string, route: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(url + route, {
      method,
      headers: {
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(token ? { Authorization: token } : {}),
        ...proxyHeaders(),
        "X-ChatCrypt-Agent": AGENT,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    return { status: res.status, json };
  };
