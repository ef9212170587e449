// Names of Object.prototype's members wherever a request names something (issue 47, item 4): as every
// id in every route of the web app and of PocketBase's server functions, as a path of their own, as a
// query parameter of every read and as a JSON body's keys. A name is never an operation by accident:
// no 5xx, no reset (tests/integration/prototype-sweep.test.ts, and the hostile suite).

import { GET_ROUTES, ID_GET_ROUTES, ID_POST_ROUTES, PB_HOOKS, PUBLIC_GET_ROUTES, validBodies, type Case } from "./hostile-inputs";
import type { Visitor } from "./web";

/** Every own name of Object.prototype: constructor, __proto__, toString, hasOwnProperty, __defineGetter__, ... */
export const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

const json = { "Content-Type": "application/json" };
/** PocketBase's server functions read with GET (the rest are POST). */
const PB_GETS = /^\/api\/chat\/(history|profiles)\?/;

/** The live stream stays open: it is no request that ends (its own caps: stream-caps.test.ts). */
const notStream = (path: string) => !path.startsWith("/api/events");
/** A valid body here asks the translation engine, which these tests do not run (502 "Translation service unavailable"). */
const NEEDS_ENGINE = ["/api/translate"];

/** Every route with `name` where an id goes (a channel's, a user's, a record's). */
function withName(route: string, name: string): string {
  return route.replaceAll("ID", name).replaceAll("abcdefghijklmno", name);
}

/**
 * The sweep: each case says only where it goes; its answer must be no 5xx and no reset (a route that
 * reads the name as a query parameter it does not know may well answer 200).
 */
export function prototypeCases({ channelId, alice, aliceToken }: { channelId: string; alice: Visitor; aliceToken: string }): Case[] {
  const all: Case[] = [];
  const reads = [...PUBLIC_GET_ROUTES, ...ID_GET_ROUTES];
  for (const name of PROTOTYPE_NAMES) {
    const escaped = encodeURIComponent(name);
    // the name as the channel's id in every route that takes one, and as every other id
    for (const path of [...GET_ROUTES(escaped).filter(notStream), ...reads].map((route) => withName(route, escaped)))
      all.push({ label: `${name} in GET ${path}`, target: "web", method: "GET", path, as: alice });
    const posts = [...Object.keys(validBodies(escaped)), ...ID_POST_ROUTES];
    for (const path of posts.map((route) => withName(route, escaped)))
      all.push({ label: `${name} in POST ${path}`, target: "web", method: "POST", path, headers: json, body: "{}", as: alice });
    for (const hook of PB_HOOKS.filter((route) => route.includes("ID"))) {
      const path = withName(hook, escaped);
      const get = PB_GETS.test(hook);
      all.push({
        label: `${name} in pb ${path}`,
        target: "pb",
        method: get ? "GET" : "POST",
        path,
        headers: { ...json, Authorization: aliceToken },
        body: get ? undefined : "{}",
      });
    }
    // a path of its own, and the sealed delivery route's operation
    for (const path of [`/${escaped}`, `/api/${escaped}`, `/api/channels/${escaped}`, `/api/sealed/${channelId}/${escaped}`])
      all.push({ label: `${name} as ${path}`, target: "web", method: "POST", path, headers: json, body: "{}", as: alice });
    for (const path of [`/api/chat/${escaped}`, `/api/collections/${escaped}/records`])
      all.push({ label: `${name} as pb ${path}`, target: "pb", method: "GET", path, headers: { Authorization: aliceToken } });
    // a query parameter of every read
    for (const route of GET_ROUTES(channelId).filter((path) => path.startsWith("/api/") && notStream(path))) {
      const path = `${route}${route.includes("?") ? "&" : "?"}${escaped}=${escaped}`;
      all.push({ label: `${name} as a query parameter of ${route}`, target: "web", method: "GET", path, as: alice });
    }
    // the keys of every JSON body, in place of a field and beside the others
    for (const [path, valid] of Object.entries(validBodies(channelId)).filter(([path]) => !NEEDS_ENGINE.includes(path))) {
      const body = JSON.stringify({ ...valid, [name]: { admin: true } });
      all.push({ label: `${name} as a key → ${path}`, target: "web", method: "POST", path, headers: json, body, as: alice });
    }
  }
  return all;
}
