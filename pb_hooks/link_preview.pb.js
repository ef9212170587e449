// @ts-check
/// <reference path="../types/hooks.d.ts" />

// POST /api/chat/link-preview (signed-in users)
//
// The spec's fetch-link-preview: fetches the page at url and answers its title (og:title or
// <title>), description (og:description or meta description) and og:image, the image fetched
// here and returned as a data URL so that recipients' browsers never contact the linked site.
// Pages and images are fetched with $safeFetch: public addresses only (no private, loopback or
// link-local targets, checked on the connected address), at most 5 redirects, 5 s in all,
// 512 KB of HTML, images up to 1 MB (PNG, JPEG, GIF, WebP).
//
// Body:   {"url": "<http or https URL, at most 2048 characters>"}
// Answer: {"success": true, "title", "description", "image": "data:image/...;base64,..." or ""}
//         {"success": false, "message"} (still 200) when the page is refused, unreachable, slow,
//         not HTML or has no title or description: a preview failure is silent in the spec.
// Errors: 400 for a malformed body or url, 401 "Not authenticated"
routerAdd(
  "POST",
  "/api/chat/link-preview",
  (e) => {
    const { badRequest } = require(`${__hooks}/lib/errors.js`);
    const { requireUser, readJsonObject } = require(`${__hooks}/lib/request.js`);
    const { buildPreview, PreviewError } = require(`${__hooks}/lib/preview.js`);

    const URL_MAX_CHARS = 2048;

    requireUser(e, "Not authenticated");
    const body = readJsonObject(e);

    const url = body.url;
    if (typeof url !== "string" || url.trim() === "") {
      throw badRequest("url must be a non-empty string.");
    }
    if (url.length > URL_MAX_CHARS) {
      throw badRequest(`url must be at most ${URL_MAX_CHARS} characters.`);
    }
    if (!/^https?:\/\/[^\s/?#]/i.test(url.trim())) {
      throw badRequest("url must be an http or https URL.");
    }

    let preview;
    try {
      preview = buildPreview(url.trim());
    } catch (err) {
      if (!(err instanceof PreviewError)) {
        e.app.logger().warn("Link preview failed unexpectedly", "error", String(err));
        return e.json(200, { success: false, message: "The page could not be fetched." });
      }
      if (err.code === "invalid_url") {
        throw badRequest("url is not a valid URL.");
      }
      e.app.logger().debug("Link preview failed", "code", err.code);
      return e.json(200, { success: false, message: err.message });
    }

    return e.json(200, {
      success: true,
      title: preview.title,
      description: preview.description,
      image: preview.image,
    });
  },
  $apis.bodyLimit(8 * 1024),
);
