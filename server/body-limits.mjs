// The largest body each route takes, known from its method and path before anything else runs
// (issue 47): a declared body over it, or any chunked body to a route that takes none, is answered 413
// "Request is too large." at once, before the session check and before a byte of it is read
// (server/body-guard.mjs then closes the connection or throws the rest away). A chunked body to a
// route that takes one is cut at the route's limit while it is read (app/server/body.server.ts).

/** A JSON body (app/server/http.server.ts MAX_JSON_BYTES). */
export const JSON_BODY_BYTES = 256 * 1024;
/** What a route without a body may still carry: the page sends "{}" to some. */
export const NO_BODY_BYTES = 1024;
const PREVIEW_BYTES = 2 * 1024 * 1024 + 64 * 1024;
export const TOO_LARGE_MESSAGE = "Request is too large.";

// POST routes whose action reads no body (a path's id segments as [^/]+)
const NO_BODY_POSTS = [
  /^\/api\/admin\/invites\/[^/]+\/revoke$/,
  /^\/api\/admin\/people\/[^/]+\/(deactivate|reactivate)$/,
  /^\/api\/auth\/sessions\/[^/]+\/revoke$/,
  /^\/api\/auth\/signout$/,
  /^\/api\/auth\/verify-email$/,
  /^\/api\/channels\/[^/]+\/bans\/[^/]+\/lift$/,
  /^\/api\/channels\/[^/]+\/(clear|delete|leave)$/,
  /^\/api\/channels\/[^/]+\/members\/[^/]+\/remove$/,
  /^\/api\/(contacts|invites|messages|passkeys)\/[^/]+\/(delete|revoke)$/,
];

/**
 * The most bytes a request to `method` `path` may carry.
 * @param {string | undefined} method
 * @param {string} path without the query
 * @param {number} uploadBytes the largest upload (UPLOAD_MAX_MB and the multipart around it)
 */
export function bodyLimit(method, path, uploadBytes) {
  if (method !== "POST" && method !== "PUT" && method !== "PATCH" && method !== "DELETE") return NO_BODY_BYTES;
  if (/^\/api\/channels\/[^/]+\/attachments$/.test(path)) return uploadBytes;
  if (/^\/api\/channels\/[^/]+\/previews$/.test(path)) return PREVIEW_BYTES;
  if (NO_BODY_POSTS.some((pattern) => pattern.test(path))) return NO_BODY_BYTES;
  return JSON_BODY_BYTES;
}

/**
 * Whether a request is too large for its route before any of its body is read: a declared length
 * over the route's limit, or a chunked body to a route that takes none.
 * @param {import("node:http").IncomingMessage} req
 * @param {number} uploadBytes
 */
export function tooLargeAtOnce(req, uploadBytes) {
  const path = (req.url ?? "/").split("?")[0];
  const limit = bodyLimit(req.method, path, uploadBytes);
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared)) return declared > limit;
  return req.headers["transfer-encoding"] !== undefined && limit <= NO_BODY_BYTES;
}
