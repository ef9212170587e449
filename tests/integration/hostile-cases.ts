// The hostile suite's requests (tests/integration/hostile.test.ts), built from its inputs
// (hostile-inputs.ts) for one stack: Alice's channel, Alice and Bob as visitors of the web app, and
// their PocketBase tokens.

import {
  EVIL_IDS,
  EVIL_STRINGS,
  FREE_TEXT,
  GARBAGE_BODIES,
  GET_ROUTES,
  PUBLIC_GET_ROUTES,
  ID_GET_ROUTES,
  ID_POST_ROUTES,
  OPTIONAL,
  PB_HOOKS,
  validBodies,
  WRONG_METHODS,
  WRONG_TYPES,
  type Case,
} from "./hostile-inputs";
import { oversizeCases } from "./hostile-oversize";
import type { Visitor } from "./web";

export interface Parties {
  channelId: string;
  alice: Visitor;
  bob: Visitor;
  aliceToken: string;
  bobToken: string;
}

/** Every hostile request of the suite, for the stack these parties signed up on. */
export function cases({ channelId, alice, bob, aliceToken, bobToken }: Parties): Case[] {
  const all: Case[] = [];
  const json = { "Content-Type": "application/json" };
  const bodies = validBodies(channelId);
  const postRoutes = [...Object.keys(bodies), "/api/auth/signout", ...ID_POST_ROUTES.map((r) => r.replace("ID", channelId))];

  // Wrong methods on every route, signed in and not.
  for (const path of [...GET_ROUTES(channelId), ...PUBLIC_GET_ROUTES, ...postRoutes, "/nowhere", "/assets/x.js"]) {
    for (const method of WRONG_METHODS) {
      all.push({ label: `${method} ${path}`, target: "web", method, path, as: alice });
      all.push({ label: `${method} ${path} (anonymous)`, target: "web", method, path });
    }
  }
  // Every route with the method it has no handler for, and POSTs to the pages.
  for (const path of [...GET_ROUTES(channelId), ...PUBLIC_GET_ROUTES])
    all.push({ label: `POST ${path}`, target: "web", method: "POST", path, headers: json, body: "{}", as: alice });
  const readable = new Set(GET_ROUTES(channelId).map((p) => p.split("?")[0]));
  for (const path of postRoutes.filter((p) => !readable.has(p)))
    all.push({ label: `GET ${path}`, target: "web", method: "GET", path, as: alice });
  for (const path of ["/api", "/api/", "/api/nowhere", "/api/channels/x/y/z", "/api/auth", "/api/.env"])
    all.push({ label: `GET ${path}`, target: "web", method: "GET", path, as: alice });
  // Signed-in POST routes: garbage bodies, wrong types, evil strings, prototype keys (oversize bodies: hostile-oversize.ts).
  for (const [path, valid] of Object.entries(bodies)) {
    for (const body of GARBAGE_BODIES)
      all.push({
        label: `garbage ${JSON.stringify(body).slice(0, 30)} → ${path}`,
        target: "web",
        method: "POST",
        path,
        headers: json,
        body,
        as: alice,
      });
    for (const field of Object.keys(valid)) {
      // Free text and ciphertext may hold any text (injection strings are data there); only NUL and
      // unpaired surrogates are refused everywhere. Formatted fields refuse every evil string.
      // eslint-disable-next-line no-control-regex -- the strings that carry a NUL
      const evils = FREE_TEXT.has(field) ? EVIL_STRINGS.filter((e) => /[\u0000\ud800-\udfff]/.test(e)) : EVIL_STRINGS;
      const sameShape = (wrong: unknown) =>
        typeof wrong === typeof valid[field] &&
        Array.isArray(wrong) === Array.isArray(valid[field]) &&
        (typeof wrong !== "object" || Array.isArray(wrong));
      for (const wrong of WRONG_TYPES.filter((w) => !sameShape(w)))
        all.push({
          label: `${field}=${JSON.stringify(wrong)} → ${path}`,
          target: "web",
          method: "POST",
          path,
          headers: json,
          body: JSON.stringify({ ...valid, [field]: wrong }),
          as: alice,
        });
      for (const evil of evils) {
        const value = typeof valid[field] === "object" ? [evil] : evil;
        all.push({
          label: `${field}=${JSON.stringify(evil).slice(0, 30)} → ${path}`,
          target: "web",
          method: "POST",
          path,
          headers: json,
          body: JSON.stringify({ ...valid, [field]: value }),
          as: alice,
        });
      }
      if (!OPTIONAL.has(field))
        all.push({
          label: `${field} missing → ${path}`,
          target: "web",
          method: "POST",
          path,
          headers: json,
          body: JSON.stringify({ ...valid, [field]: undefined }),
          as: alice,
        });
    }
    all.push({
      label: `__proto__ → ${path}`,
      target: "web",
      method: "POST",
      path,
      headers: json,
      body: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"admin":true},'),
      as: alice,
    });
    all.push({
      label: `constructor → ${path}`,
      target: "web",
      method: "POST",
      path,
      headers: json,
      body: JSON.stringify(valid).replace(/^\{/, '{"constructor":{"prototype":{"admin":true}},'),
      as: alice,
    });
  }
  // Traversal and injection ids in every id route.
  for (const route of [...ID_POST_ROUTES, ...ID_GET_ROUTES]) {
    for (const id of EVIL_IDS) {
      const path = route.replace("ID", id);
      const post = ID_POST_ROUTES.includes(route);
      all.push({
        label: `id ${id.slice(0, 30)} → ${route}`,
        target: "web",
        method: post ? "POST" : "GET",
        path,
        headers: post ? json : {},
        body: post ? "{}" : undefined,
        as: alice,
      });
    }
  }
  // Another user's ids: Bob, signed in but no member, on every id route of Alice's channel.
  for (const route of [...ID_POST_ROUTES, ...ID_GET_ROUTES]) {
    const post = ID_POST_ROUTES.includes(route);
    all.push({
      label: `bob on alice's ${route}`,
      target: "web",
      method: post ? "POST" : "GET",
      path: route.replace("ID", channelId),
      headers: post ? json : {},
      body: post ? "{}" : undefined,
      as: bob,
      // the Welcomes addressed to Bob's devices in that channel, and Bob's own archive of it: none, and nothing of Alice's shows
      ok: route.endsWith("/welcomes")
        ? '{"welcomes":[]}'
        : route === "/api/archive/ID" && !post
          ? '{"entries":[],"hasMore":false}'
          : undefined,
    });
  }
  // Injection in query strings.
  for (const evil of EVIL_STRINGS.filter((s) => s.length < 100)) {
    // a lone surrogate has no UTF-8 form: send the bytes a careless encoder would produce
    const q =
      evil.replace(/[\ud800-\udfff]/g, "").length !== evil.length
        ? `%ED%A0%80${encodeURIComponent(evil.replace(/[\ud800-\udfff]/g, ""))}`
        : encodeURIComponent(evil);
    all.push({ label: `profiles ids=${evil}`, target: "web", method: "GET", path: `/api/profiles?ids=${q}`, as: alice });
    all.push({ label: `events channel=${evil}`, target: "web", method: "GET", path: `/api/events?channel=${q}`, as: alice });
    all.push({
      label: `messages limit=${evil}`,
      target: "web",
      method: "GET",
      path: `/api/channels/${channelId}/messages?limit=${q}`,
      as: alice,
    });
  }
  // Bad cookies on every route (GET routes and POST routes with the page's CSRF token).
  const badCookies = [
    "chatcrypt_session=garbage",
    "chatcrypt_session=eyJ0b2tlbiI6IngiLCJ1c2VySWQiOiJ5In0%3D.AAAA",
    `chatcrypt_session=${"A".repeat(3000)}`,
    "chatcrypt_session=%00%01",
    "chatcrypt_session=; chatcrypt_csrf=",
    `${alice.cookieHeader().replace(/chatcrypt_session=([^;]*)/, (_m, v: string) => `chatcrypt_session=${v.slice(0, -3)}abc`)}`,
    "chatcrypt_session=\u00e9\u00e8",
  ];
  for (const cookie of badCookies) {
    for (const path of GET_ROUTES(channelId).filter((p) => p.startsWith("/api/")))
      all.push({ label: `cookie ${cookie.slice(0, 30)} GET ${path}`, target: "web", method: "GET", path, headers: { Cookie: cookie } });
    for (const path of postRoutes)
      all.push({
        label: `cookie ${cookie.slice(0, 30)} POST ${path}`,
        target: "web",
        method: "POST",
        path,
        headers: { ...json, Cookie: cookie, "X-CSRF-Token": alice.csrfToken },
        body: "{}",
      });
  }
  // CSRF variants on every POST route, with a valid session.
  const [nonce, mac] = alice.csrfToken.split(".");
  const csrfVariants: (string | null)[] = [
    null,
    "",
    "x",
    nonce,
    `${nonce}.`,
    `.${mac}`,
    `${nonce}.${mac.slice(0, -2)}AA`,
    `${nonce}x.${mac}`,
    bob.csrfToken,
    alice.csrfToken.repeat(10),
    `${nonce}.${mac}\u00e9`,
  ];
  for (const variant of csrfVariants) {
    for (const path of postRoutes) {
      const headers: Record<string, string> = { ...json, Cookie: alice.cookieHeader() };
      if (variant !== null) headers["X-CSRF-Token"] = variant;
      all.push({
        label: `csrf ${JSON.stringify(variant)?.slice(0, 20)} → ${path}`,
        target: "web",
        method: "POST",
        path,
        headers,
        body: JSON.stringify(bodies[path] ?? {}),
      });
    }
  }
  // PocketBase's server functions, directly.
  for (const hook of PB_HOOKS) {
    const path = hook.replace("ID", channelId);
    // Signing out and clearing a channel one created ignore the body: any body is a valid request there.
    const ignoresBody = hook === "/api/chat/signout" || hook.endsWith("/clear");
    for (const method of ["TRACE", "PROPFIND", "PUT", "DELETE", "PATCH"])
      all.push({ label: `${method} pb ${path}`, target: "pb", method, path, headers: { Authorization: aliceToken } });
    const token = ignoresBody ? bobToken : aliceToken; // bob may not clear alice's channel
    if (hook !== "/api/chat/signout") {
      for (const body of GARBAGE_BODIES)
        all.push({ label: `pb garbage → ${path}`, target: "pb", method: "POST", path, headers: { ...json, Authorization: token }, body });
      for (const evil of EVIL_STRINGS)
        all.push({
          label: `pb evil → ${path}`,
          target: "pb",
          method: "POST",
          path,
          headers: { ...json, Authorization: token },
          body: JSON.stringify({ id: evil, channel_id: evil, verifier: evil, url: evil, text: [evil], targetLang: evil }),
        });
    }
    all.push({
      label: `pb bad token → ${path}`,
      target: "pb",
      method: "POST",
      path,
      headers: { ...json, Authorization: "Bearer x.y.z" },
      body: "{}",
    });
  }
  return [...all, ...oversizeCases({ channelId, alice, aliceToken })];
}
