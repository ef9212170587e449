// @ts-check
/// <reference path="../../types/hooks.d.ts" />

// Link previews: the page is fetched with $safeFetch (pocketbase/safefetch.go: public addresses
// only, checked on the connected address, size and time limits) and read by $parsePreview
// (pocketbase/preview.go: og:, twitter: and plain <title>/<meta> tags, read with
// golang.org/x/net/html); its image is fetched the same way and returned as a data URL.

const PAGE_MAX_BYTES = 512 * 1024;
const IMAGE_MAX_BYTES = 1024 * 1024;
const PREVIEW_TIMEOUT_MS = 5000;
const IMAGE_MIN_TIME_MS = 200;

const PAGE_TYPES = ["text/html", "application/xhtml+xml"];
// Raster types only, identified by the bytes themselves (never SVG, which can carry script).
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

// Thrown when a preview cannot be made; `code` is the $safeFetch code or one of ours.
/**
 * @constructor
 * @param {string} code
 * @param {string} message
 */
function PreviewError(code, message) {
  this.code = code;
  this.message = message;
}

/** @type {{[code: string]: string}} */
const FAILURE_MESSAGES = {
  blocked: "This address cannot be previewed.",
  content_type: "The link is not an HTML page.",
  timeout: "The page took too long to answer.",
  too_many_redirects: "The page redirects too many times.",
  busy: "Too many link previews are in progress. Please try again.",
  status: "The page could not be fetched.",
  empty: "The page has no title or description.",
};

// The message for the client of a failed preview.
/**
 * @param {string} code
 * @returns {string}
 */
function failureMessage(code) {
  return Object.prototype.hasOwnProperty.call(FAILURE_MESSAGES, code) ? FAILURE_MESSAGES[code] : "The page could not be fetched.";
}

/**
 * @param {unknown} err
 * @returns {string}
 */
function errorCode(err) {
  const code = err && typeof err === "object" && "code" in err ? err.code : undefined;
  return typeof code === "string" ? code : "unreachable";
}

// The image at imageUrl (an absolute http(s) address) as a data URL, or "" when it cannot be
// fetched, is not a PNG, JPEG, GIF or WebP image, or is larger than 1 MB.
/**
 * @param {string} imageUrl
 * @param {number} timeoutMs
 * @returns {string}
 */
function fetchImageDataUrl(imageUrl, timeoutMs) {
  if (!imageUrl || timeoutMs < IMAGE_MIN_TIME_MS) {
    return "";
  }
  let res;
  try {
    res = $safeFetch({
      url: imageUrl,
      maxBytes: IMAGE_MAX_BYTES,
      timeoutSec: timeoutMs / 1000,
      accept: ["image/*"],
    });
  } catch (_) {
    return "";
  }
  if (res.status < 200 || res.status > 299 || res.truncated || res.size === 0 || res.bodyEncoding !== "base64") {
    return "";
  }
  if (IMAGE_TYPES.indexOf(res.sniffedType) < 0) {
    return "";
  }
  return "data:" + res.sniffedType + ";base64," + res.body;
}

// Fetches the page at url and answers {title, description, image} with the image as a data URL
// (or ""). Throws a PreviewError when there is nothing to show; an invalid url is thrown with
// code "invalid_url".
/**
 * @param {string} url
 * @returns {{title: string, description: string, image: string}}
 */
function buildPreview(url) {
  const started = Date.now();

  let page;
  try {
    page = $safeFetch({
      url: url,
      maxBytes: PAGE_MAX_BYTES,
      timeoutSec: PREVIEW_TIMEOUT_MS / 1000,
      accept: PAGE_TYPES,
      raw: true,
    });
  } catch (err) {
    const code = errorCode(err);
    throw new PreviewError(code, failureMessage(code));
  }

  if (page.status < 200 || page.status > 299) {
    throw new PreviewError("status", failureMessage("status"));
  }

  // The image address comes back resolved against the page's final URL (or its <base href>).
  const found = $parsePreview(page.body, page.finalUrl, page.headers["content-type"] || "");
  if (!found.title && !found.description) {
    throw new PreviewError("empty", failureMessage("empty"));
  }

  const remaining = PREVIEW_TIMEOUT_MS - (Date.now() - started);
  return {
    title: found.title,
    description: found.description,
    image: fetchImageDataUrl(found.image, remaining),
  };
}

module.exports = { buildPreview, PreviewError };
