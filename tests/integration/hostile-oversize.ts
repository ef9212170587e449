// The hostile suite's oversize bodies (issue 47): on every route of the web app and every PocketBase
// server function, a body larger than the route takes is answered 413, chunked or declared, never a
// reset or another status. A route that takes no body answers 413 before the session check, so
// signed out as well; a JSON route reads at most its limit of a chunked body (server/body-limits.mjs).

import { GET_ROUTES, ID_GET_ROUTES, ID_POST_ROUTES, oversize, PB_HOOKS, PUBLIC_GET_ROUTES, validBodies, type Case } from "./hostile-inputs";
import type { Visitor } from "./web";

const MB = 1024 * 1024;
const json = { "Content-Type": "application/json" };

/** POST routes whose action reads no body (server/body-limits.mjs NO_BODY_POSTS). */
const NO_BODY_POSTS = [
  "/api/auth/signout",
  "/api/auth/verify-email",
  "/api/channels/ID/clear",
  "/api/channels/ID/delete",
  "/api/channels/ID/leave",
  "/api/channels/ID/members/abcdefghijklmno/remove",
  "/api/channels/ID/bans/abcdefghijklmno/lift",
  "/api/invites/ID/revoke",
  "/api/admin/invites/ID/revoke",
  "/api/admin/people/ID/deactivate",
  "/api/admin/people/ID/reactivate",
  "/api/contacts/ID/delete",
  "/api/passkeys/ID/delete",
  "/api/auth/sessions/ID/revoke",
  "/api/messages/abcdefghijklmno/delete",
];
/** PocketBase's server functions that are read with GET: a POST there is no route. */
const GET_HOOKS = [
  "/api/chat/channels/key-shares",
  "/api/chat/history",
  "/api/chat/profiles",
  "/api/chat/people",
  "/api/chat/push/key",
  "/api/chat/password-reset",
  "/api/chat/admin/audit",
  "/api/chat/admin/health",
  "/api/chat/account/activity",
  "/api/chat/account/export",
];
/** The sealed delivery route with a name that is no operation (Object.prototype's): answered 404 "Not found.". */
const noOperation = /^\/api\/sealed\/[^/]+\/(constructor|__proto__|toString|hasOwnProperty|valueOf|isPrototypeOf)$/;
/** Uploads: multipart, their own limits (tests/integration/uploads-stream.test.ts). */
const UPLOADS = ["/api/channels/ID/attachments", "/api/channels/ID/previews"];

const chunked = (
  label: string,
  target: "web" | "pb",
  path: string,
  headers: Record<string, string>,
  bytes: number,
  as?: Visitor,
): Case => ({
  label: `${label} chunked ${bytes / 1024} KiB → ${path}`,
  target,
  method: "POST",
  path,
  headers: { ...json, ...headers, "Transfer-Encoding": "chunked" },
  body: () => oversize(bytes),
  as,
  status: 413,
});

const declared = (label: string, path: string, bytes: number, as?: Visitor, method = "POST"): Case => ({
  label: `${label} declared ${bytes / MB} MB → ${method} ${path}`,
  target: "web",
  method,
  path,
  headers: { ...json, "Content-Length": String(bytes) },
  body: Buffer.alloc(300 * 1024, "a"),
  as,
  status: 413,
});

/**
 * `everyServerFunction`: also a chunked body to each of PocketBase's server functions that takes none,
 * and a declared one, sent whole, to each that takes one (5 MB each: in oversize-bodies.test.ts only,
 * not in each of the hostile suite's four passes).
 */
export function oversizeCases({
  channelId,
  alice,
  aliceToken,
  everyServerFunction = false,
}: {
  channelId: string;
  alice: Visitor;
  aliceToken: string;
  everyServerFunction?: boolean;
}): Case[] {
  const all: Case[] = [];
  const withId = (route: string) => route.replace("ID", channelId);
  const noBody = NO_BODY_POSTS.map(withId);
  const uploads = UPLOADS.map(withId);
  // (a device link's id is of its own form: another is "not found" before anything is read)
  const real = ID_POST_ROUTES.map((route) =>
    route.startsWith("/api/device-links/") ? route.replace("ID", "abcdefghijklmno") : withId(route),
  );
  const jsonRoutes = [...new Set([...Object.keys(validBodies(channelId)), ...real])].filter(
    (path) => !noBody.includes(path) && !uploads.includes(path),
  );
  // JSON routes: signed in, chunked and declared; signed out, declared (refused before the session check)
  for (const path of jsonRoutes) {
    // twice the 256 KiB a JSON body may have; a name that is no operation is not found before anything is read
    all.push({ ...chunked("signed in", "web", path, {}, MB / 2, alice), status: noOperation.test(path) ? 404 : 413 });
    all.push(declared("signed in", path, 10 * MB, alice));
    all.push(declared("signed out", path, 10 * MB));
  }
  // routes that take no body: refused before the session check, signed in or not, chunked or declared
  const reads = [...GET_ROUTES(channelId), ...PUBLIC_GET_ROUTES, ...ID_GET_ROUTES.map(withId)];
  for (const path of noBody) {
    for (const as of [alice, undefined]) {
      all.push(chunked(as ? "signed in" : "signed out", "web", path, {}, MB / 16, as)); // 64 KiB: the route takes 1 KiB
      all.push(declared(as ? "signed in" : "signed out", path, 10 * MB, as));
    }
  }
  for (const path of reads) {
    all.push({ ...chunked("signed out", "web", path, {}, MB / 16), method: "GET" });
    all.push(declared("signed out", path, 10 * MB, undefined, "GET"));
  }
  // uploads: a declared body over the largest file (50 MB and its multipart) or preview image
  for (const path of uploads) all.push(declared("signed out", path, 60 * MB), declared("signed in", path, 60 * MB, alice));
  // PocketBase's server functions, directly, with a valid token: a chunked body past the 4,300 KiB any
  // of them takes (pocketbase/chunked_limit.go), to those that take none as well, with their own method;
  // a declared one, sent whole, to those that take one (each its own $apis.bodyLimit)
  for (const hook of PB_HOOKS) {
    const path = withId(hook);
    const get = GET_HOOKS.some((prefix) => hook.startsWith(prefix));
    const takesNone = get || hook === "/api/chat/signout" || hook.endsWith("/clear") || hook.endsWith("/revoke");
    if (takesNone && !everyServerFunction) continue;
    all.push({ ...chunked("pb", "pb", path, { Authorization: aliceToken }, 5 * MB), method: get ? "GET" : "POST" });
    if (everyServerFunction && !takesNone)
      all.push({
        label: `pb declared 5 MB → ${path}`,
        target: "pb",
        method: "POST",
        path,
        headers: { ...json, Authorization: aliceToken },
        body: Buffer.alloc(5 * MB, "a"),
        status: 413,
      });
  }
  return all;
}
