/// <reference path="../../pb_data/types.d.ts" />

// Link previews: reading title, description and image from an HTML page, and fetching the
// image as a data URL. Pages and images are fetched with $safeFetch (pocketbase/safefetch.go),
// which refuses private, loopback and link-local addresses, caps size and time.
//
// The HTML reader is a small tolerant scanner, not a parser: it looks for <title> and <meta>
// tags, skips comments and the contents of <script>, <style>, <textarea> and <template>, and
// never throws on malformed markup.

const TITLE_MAX_CHARS = 300;
const DESCRIPTION_MAX_CHARS = 1000;
const IMAGE_URL_MAX_CHARS = 2048;
const RAW_TEXT_MAX_CHARS = 20000; // of a candidate value, before decoding and trimming
// <meta> attributes read per tag and per page: real tags are far smaller, and the limits keep a
// hostile page from costing more than a fraction of a second.
const META_TAG_MAX_CHARS = 8 * 1024;
const META_PAGE_MAX_CHARS = 128 * 1024;

const PAGE_MAX_BYTES = 512 * 1024;
const IMAGE_MAX_BYTES = 1024 * 1024;
const PREVIEW_TIMEOUT_MS = 5000;
const IMAGE_MIN_TIME_MS = 200;

const PAGE_TYPES = ["text/html", "application/xhtml+xml"];
// Raster types only, identified by the bytes themselves (never SVG, which can carry script).
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

// ---------------------------------------------------------------------------------------------
// Character references

const NAMED_ENTITIES = {
  amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0",
  iexcl: "¡", cent: "¢", pound: "£", curren: "¤", yen: "¥", brvbar: "¦", sect: "§", uml: "¨",
  copy: "©", ordf: "ª", laquo: "«", not: "¬", shy: "\u00ad", reg: "®", macr: "¯", deg: "°",
  plusmn: "±", sup2: "²", sup3: "³", acute: "´", micro: "µ", para: "¶", middot: "·", cedil: "¸",
  sup1: "¹", ordm: "º", raquo: "»", frac14: "¼", frac12: "½", frac34: "¾", iquest: "¿",
  Agrave: "À", Aacute: "Á", Acirc: "Â", Atilde: "Ã", Auml: "Ä", Aring: "Å", AElig: "Æ",
  Ccedil: "Ç", Egrave: "È", Eacute: "É", Ecirc: "Ê", Euml: "Ë", Igrave: "Ì", Iacute: "Í",
  Icirc: "Î", Iuml: "Ï", ETH: "Ð", Ntilde: "Ñ", Ograve: "Ò", Oacute: "Ó", Ocirc: "Ô",
  Otilde: "Õ", Ouml: "Ö", times: "×", Oslash: "Ø", Ugrave: "Ù", Uacute: "Ú", Ucirc: "Û",
  Uuml: "Ü", Yacute: "Ý", THORN: "Þ", szlig: "ß", agrave: "à", aacute: "á", acirc: "â",
  atilde: "ã", auml: "ä", aring: "å", aelig: "æ", ccedil: "ç", egrave: "è", eacute: "é",
  ecirc: "ê", euml: "ë", igrave: "ì", iacute: "í", icirc: "î", iuml: "ï", eth: "ð", ntilde: "ñ",
  ograve: "ò", oacute: "ó", ocirc: "ô", otilde: "õ", ouml: "ö", divide: "÷", oslash: "ø",
  ugrave: "ù", uacute: "ú", ucirc: "û", uuml: "ü", yacute: "ý", thorn: "þ", yuml: "ÿ",
  OElig: "Œ", oelig: "œ", Scaron: "Š", scaron: "š", Yuml: "Ÿ", fnof: "ƒ", circ: "ˆ", tilde: "˜",
  ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009", zwnj: "\u200c", zwj: "\u200d",
  lrm: "\u200e", rlm: "\u200f", ndash: "–", mdash: "—", lsquo: "‘", rsquo: "’", sbquo: "‚",
  ldquo: "“", rdquo: "”", bdquo: "„", dagger: "†", Dagger: "‡", bull: "•", hellip: "…",
  permil: "‰", prime: "′", Prime: "″", lsaquo: "‹", rsaquo: "›", oline: "‾", frasl: "⁄",
  euro: "€", trade: "™", larr: "←", uarr: "↑", rarr: "→", darr: "↓", harr: "↔", minus: "−",
  le: "≤", ge: "≥", ne: "≠", infin: "∞", asymp: "≈", hearts: "♥", check: "✓",
  Alpha: "Α", Beta: "Β", Gamma: "Γ", Delta: "Δ", Omega: "Ω", alpha: "α", beta: "β",
  gamma: "γ", delta: "δ", pi: "π", mu: "μ", lambda: "λ", sigma: "σ", omega: "ω",
};

// Names that browsers also decode without the closing semicolon.
const LEGACY_NO_SEMICOLON = { amp: true, lt: true, gt: true, quot: true, nbsp: true, copy: true, reg: true };

// Numeric references 0x80-0x9F mean windows-1252 characters (HTML standard).
const C1_REPLACEMENTS = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020,
  0x87: 0x2021, 0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152,
  0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022,
  0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a,
  0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

function codePointText(code) {
  if (C1_REPLACEMENTS[code]) {
    code = C1_REPLACEMENTS[code];
  }
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) {
    return "\ufffd";
  }
  return String.fromCodePoint(code);
}

// Decodes character references in one pass ("&amp;lt;" becomes "&lt;", not "<").
function decodeEntities(text) {
  return text.replace(/&(?:#([0-9]{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/gu,
    (match, decimal, hex, name, semicolon) => {
      if (decimal !== undefined && decimal !== "") {
        return codePointText(parseInt(decimal, 10));
      }
      if (hex !== undefined && hex !== "") {
        return codePointText(parseInt(hex, 16));
      }
      if (!Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, name)) {
        return match;
      }
      if (semicolon !== ";" && !LEGACY_NO_SEMICOLON[name]) {
        return match;
      }
      return NAMED_ENTITIES[name];
    });
}

// Decoded, control characters removed, whitespace collapsed, trimmed and cut to maxChars
// characters (code points).
function cleanText(raw, maxChars) {
  if (typeof raw !== "string" || raw === "") {
    return "";
  }
  const text = decodeEntities(raw.slice(0, RAW_TEXT_MAX_CHARS))
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u200b\u2028\u2029\ufeff]/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
  const chars = Array.from(text);
  return chars.length > maxChars ? chars.slice(0, maxChars).join("").trim() : text;
}

// ---------------------------------------------------------------------------------------------
// HTML scanning
//
// One pass of one regular expression over the page, then one over each <meta> tag's attributes.
// Every token ends at its end marker or at the end of the page, so no match attempt can fail
// after scanning far ahead. The expressions use only what Go's regexp engine supports (no
// lookarounds, no back-references, no [\s\S]: the "s" flag instead), and are run with the "u"
// flag through String.prototype.replace, so the JS runtime hands them to that linear-time engine
// instead of its backtracking one. A hostile 512 KB page costs well under a second.

// The attributes of a start tag, quoted or not (a quote without its pair stands alone), up to
// its ">" or the end of the page.
const START_TAG_REST = "((?:[^>\"']|\"[^\"]*\"|'[^']*'|[\"'])*)(?:>|$)";

// Contents of elements that are text, not markup, with their end tag (or the end of the page).
function rawTextElement(name) {
  return `<${name}\\b.*?(?:<\\/${name}\\s*>|$)`;
}

const PAGE_TOKENS = new RegExp([
  "<!--.*?(?:-->|$)",
  rawTextElement("script"),
  rawTextElement("style"),
  rawTextElement("textarea"),
  rawTextElement("template"),
  // group 2: the title's text
  "<title\\b" + START_TAG_REST + "(.*?)(?:<\\/title\\s*>|$)",
  // group 3: a meta tag's attributes
  "<meta\\b" + START_TAG_REST,
].join("|"), "gisu");

// name, then a double-quoted, single-quoted or unquoted value
const ATTRIBUTE = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/gu;

// The attributes of a start tag as {lowercase name: raw value}; the first occurrence wins.
function readAttributes(text) {
  const attrs = {};
  text.replace(ATTRIBUTE, (match, name, doubleQuoted, singleQuoted, unquoted) => {
    const key = name.toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) {
      const value = doubleQuoted !== undefined ? doubleQuoted : singleQuoted !== undefined ? singleQuoted : unquoted;
      attrs[key] = value === undefined ? "" : value;
    }
    return "";
  });
  return attrs;
}

const MENTIONS_CONTENT = /content/iu;

const META_KEYS = {
  "og:title": "ogTitle",
  "og:description": "ogDescription",
  "og:image": "ogImage",
  "og:image:url": "ogImage",
  "og:image:secure_url": "ogImage",
  description: "description",
};

// The raw (undecoded) title, meta description, og:title, og:description and og:image of a page;
// the first occurrence of each wins. Missing values are "". Comments and the contents of
// <script>, <style>, <textarea> and <template> are skipped.
function scanPage(html) {
  const found = { title: "", description: "", ogTitle: "", ogDescription: "", ogImage: "" };
  const seen = {};
  let metaBudget = META_PAGE_MAX_CHARS;

  html.replace(PAGE_TOKENS, (match, titleAttributes, titleText, metaAttributes) => {
    if (titleText !== undefined) {
      if (!seen.title) {
        seen.title = true;
        found.title = titleText;
      }
      return "";
    }
    if (metaAttributes === undefined) {
      return ""; // a comment or a raw text element
    }
    if (metaAttributes.length > META_TAG_MAX_CHARS || metaAttributes.length > metaBudget) {
      return "";
    }
    metaBudget -= metaAttributes.length;
    if (!MENTIONS_CONTENT.test(metaAttributes)) {
      return "";
    }
    const attrs = readAttributes(metaAttributes);
    const key = String(attrs.property || attrs.name || "").trim().toLowerCase();
    const field = Object.prototype.hasOwnProperty.call(META_KEYS, key) ? META_KEYS[key] : null;
    if (field && !seen[field] && typeof attrs.content === "string" && attrs.content.trim() !== "") {
      seen[field] = true;
      found[field] = attrs.content;
    }
    return "";
  });
  return found;
}

// {title, description, image}: og:title or <title>, og:description or meta description (both
// decoded, trimmed and capped), and the og:image URL as written in the page ("" when absent).
function extractPreview(html) {
  const raw = scanPage(typeof html === "string" ? html : "");
  const title = cleanText(raw.ogTitle, TITLE_MAX_CHARS) || cleanText(raw.title, TITLE_MAX_CHARS);
  const description = cleanText(raw.ogDescription, DESCRIPTION_MAX_CHARS) ||
    cleanText(raw.description, DESCRIPTION_MAX_CHARS);
  let image = decodeEntities(raw.ogImage.slice(0, IMAGE_URL_MAX_CHARS + 1)).trim();
  if (image.length > IMAGE_URL_MAX_CHARS) {
    image = "";
  }
  return { title: title, description: description, image: image };
}

// ---------------------------------------------------------------------------------------------
// Fetching

// Thrown when a preview cannot be made; `code` is the $safeFetch code or one of ours.
function PreviewError(code, message) {
  this.code = code;
  this.message = message;
}

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
function failureMessage(code) {
  return Object.prototype.hasOwnProperty.call(FAILURE_MESSAGES, code)
    ? FAILURE_MESSAGES[code]
    : "The page could not be fetched.";
}

function errorCode(err) {
  return err && typeof err.code === "string" ? err.code : "unreachable";
}

// The image at imageUrl (resolved against the page's final URL) as a data URL, or "" when it
// cannot be fetched, is not a PNG, JPEG, GIF or WebP image, or is larger than 1 MB.
function fetchImageDataUrl(imageUrl, pageUrl, timeoutMs) {
  if (!imageUrl || /^data:/i.test(imageUrl) || timeoutMs < IMAGE_MIN_TIME_MS) {
    return "";
  }
  let res;
  try {
    res = $safeFetch({
      url: imageUrl,
      base: pageUrl,
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
function buildPreview(url) {
  const started = Date.now();

  let page;
  try {
    page = $safeFetch({
      url: url,
      maxBytes: PAGE_MAX_BYTES,
      timeoutSec: PREVIEW_TIMEOUT_MS / 1000,
      accept: PAGE_TYPES,
    });
  } catch (err) {
    const code = errorCode(err);
    throw new PreviewError(code, failureMessage(code));
  }

  if (page.status < 200 || page.status > 299) {
    throw new PreviewError("status", failureMessage("status"));
  }

  const found = extractPreview(page.bodyEncoding === "text" ? page.body : "");
  if (!found.title && !found.description) {
    throw new PreviewError("empty", failureMessage("empty"));
  }

  const remaining = PREVIEW_TIMEOUT_MS - (Date.now() - started);
  return {
    title: found.title,
    description: found.description,
    image: fetchImageDataUrl(found.image, page.finalUrl, remaining),
  };
}

module.exports = {
  TITLE_MAX_CHARS,
  DESCRIPTION_MAX_CHARS,
  decodeEntities,
  cleanText,
  scanPage,
  extractPreview,
  buildPreview,
  PreviewError,
};
