// Request guards of the production web server (server.mjs), in front of the Remix handler:
// methods the app does not serve, OPTIONS, private caching, and clear answers for malformed requests.

/** The methods the app answers; everything else is refused before Remix (or undici) sees it. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"];
const ALLOW_HEADER = [...ALLOWED_METHODS, "OPTIONS"].join(", ");

/** A JSON error answer `{ message }`, never cached. */
export function sendError(res, status, message, headers = {}) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(body);
}

/**
 * OPTIONS answers with the allowed methods and runs no loader; any other method the app does not serve
 * (TRACE, PUT, PROPFIND, ...) is a 405 with a readable message.
 */
export function methodGuard(req, res, next) {
  if (ALLOWED_METHODS.includes(req.method)) return next();
  if (req.method === "OPTIONS") {
    res.writeHead(204, { Allow: ALLOW_HEADER, "Cache-Control": "no-store", "Content-Length": 0 });
    res.end();
    return;
  }
  sendError(res, 405, `The method ${req.method} is not allowed here. This server accepts GET, HEAD and POST.`, {
    Allow: ALLOW_HEADER,
  });
}

/**
 * Pages and API answers carry user data: no cache may keep them (`no-store`), and a cache that
 * ignores that still must not hand one user's answer to another (`Vary: Cookie`).
 */
export function privateResponses(_req, res, next) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!res.headersSent) {
      const cacheControl = String(res.getHeader("Cache-Control") ?? "");
      if (!/\bno-store\b/i.test(cacheControl)) res.setHeader("Cache-Control", "no-store");
      const vary = String(res.getHeader("Vary") ?? "");
      if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Cookie` : "Cookie");
    }
    return writeHead.apply(this, args);
  };
  next();
}

/** The app's API routes from the build's route manifest: a pattern for `api/channels/:id/...` and its handlers. */
// A nested route's path is relative to its parent's (api.channels.$id.members.$userId.remove sits
// under api.channels.$id.members): join them into the full address.
function fullPath(routes, route) {
  const parent = route.parentId ? routes[route.parentId] : undefined;
  const above = parent ? fullPath(routes, parent) : "";
  return [above, route.path ?? ""].filter(Boolean).join("/");
}

function apiRoutes(routes) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return Object.values(routes)
    .map((route) => ({ route, path: fullPath(routes, route) }))
    .filter(({ route, path }) => typeof route.path === "string" && path.startsWith("api/"))
    .map(({ route, path }) => {
      const parts = path.split("/");
      const pattern = parts.map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : escape(part))).join("/");
      return {
        pattern: new RegExp(`^/${pattern}/?$`),
        params: parts.filter((part) => part.startsWith(":") || part === "*").length,
        loader: Boolean(route.module?.loader),
        action: Boolean(route.module?.action),
      };
    })
    .sort((a, b) => a.params - b.params); // static segments win, as in Remix's ranking
}

function decodable(pathname) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function redirect(res, location) {
  res.writeHead(302, { Location: location, "Cache-Control": "no-store", "Content-Length": 0 });
  res.end();
}

/**
 * Answers what Remix would answer with a misleading text or an HTML page: an address under /api/
 * that no route serves (JSON 404), a method the matched route has no handler for (405: Remix says
 * "Unexpected Server Error"), and a POST to a page, since no page has an action.
 */
export function routeGuard(routes) {
  const api = apiRoutes(routes);
  const pagesTakePosts = Object.values(routes).some((route) => !fullPath(routes, route).startsWith("api/") && route.module?.action);
  return (req, res, next) => {
    // (an absolute address, "http://host/api/...", is for proxies: the app takes only a path)
    if (!req.originalUrl.startsWith("/")) return sendError(res, 400, "The request's address must be a path.");
    let url;
    try {
      url = new URL(`http://localhost${req.originalUrl}`);
    } catch {
      return sendError(res, 400, "The request's address is malformed.");
    }
    // Remix's older data requests: this app's pages load their data by themselves (each such request was
    // answered "Unexpected Server Error" with a warning in the log)
    if (url.searchParams.has("_data")) return sendError(res, 400, "This address does not take a _data parameter.");
    const pathname = url.pathname.replace(/^\/{2,}(?=api(\/|$))/, "/");
    const reading = req.method === "GET" || req.method === "HEAD";
    if (!pathname.startsWith("/api/") && pathname !== "/api") {
      // A page's address that cannot be decoded ("/c/%E0%A4%A", "/c/%ZZ": a link cut or mistyped) goes
      // to the same address with its "%" taken literally: the app says what it says of an unknown
      // address ("This conversation is not available to you."), not a bare JSON error.
      if (reading && !decodable(pathname)) return redirect(res, `${pathname.replaceAll("%", "%25")}${url.search}`);
      if (reading || pagesTakePosts) return next();
      return sendError(res, 405, "Pages accept only GET and HEAD.", { Allow: "GET, HEAD, OPTIONS" });
    }
    let decoded = pathname;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      // Remix matches the raw segments too; an undecodable one is still just a segment
    }
    const route = api.find((r) => r.pattern.test(pathname) || r.pattern.test(decoded));
    // ("//api/channels" is no route's address either: Remix would answer it with the page's 404)
    if (!route || pathname !== url.pathname) return sendError(res, 404, "There is no such API address.");
    if (reading && !route.loader) return sendError(res, 405, "This address accepts only POST.", { Allow: "POST, OPTIONS" });
    if (!reading && !route.action) return sendError(res, 405, "This address accepts only GET.", { Allow: "GET, HEAD, OPTIONS" });
    next();
  };
}

/**
 * Errors that reach Express come from building the request for Remix (a malformed Host header or
 * address): the client's fault, so a 400. Anything else is a 500 without details.
 */
export function errorHandler(error, _req, res, _next) {
  const code = error && typeof error === "object" ? error.code : undefined;
  if (code === "ERR_INVALID_URL" || error instanceof URIError) {
    sendError(res, 400, "The request's address or Host header is malformed.");
    return;
  }
  // PocketBase refused a call for too many requests (its SDK's error, passed on by a handler): the
  // page hears the 429 and PocketBase's words, not a server failure (docs/decisions/0068-caps-per-account.md)
  if (String(error?.name).startsWith("ClientResponseError") && error.status === 429) {
    sendError(res, 429, error.response?.message || "Too many requests. Please wait a moment.");
    return;
  }
  console.error("Unhandled error in the web server:", error);
  sendError(res, 500, "Something went wrong on the server. Please try again.");
}

/** Requests Node's HTTP parser refuses (unknown methods, malformed headers) get a readable 400. */
export function answerClientError(error, socket) {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const message = tooLarge ? "The request's headers are too large." : "The request is malformed (unknown method or invalid headers).";
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
