// Reading RSS and Atom feeds for GET /api/chat/news: items as plain text, ready to show.
//
// This file is plain ES2015 with no runtime APIs (no Node, browser or PocketBase globals), so the
// same code runs in the hooks' JS runtime and in the unit tests (tests/unit/workspace-feed.test.ts).
//
// The reader is a tolerant scanner, not a validating parser. It walks the text with indexOf,
// tracks the open elements (prefixes resolved through xmlns declarations, CDATA sections and
// comments skipped, unclosed elements closed by an enclosing end tag), keeps each item or entry
// with its direct children, and reads the fields from those. Malformed input never throws: it
// yields what can be read. Every scan only moves forward, and the work per feed is capped (tags
// read, text collected), so a hostile 512 KB feed costs a fraction of a second. The few regular
// expressions are ones Go's linear-time engine can run (no lookarounds, no back-references), with
// the "u" flag and through String.prototype.replace and test, so the hook runtime never falls
// back to its backtracking engine.

const INPUT_MAX_CHARS = 512 * 1024;
const DEFAULT_LIMIT = 30;
const TEXT_MAX_CHARS = 1000;
const TITLE_MAX_CHARS = 300;
const LINK_MAX_CHARS = 2048;
const ID_MAX_CHARS = 2048;
const DATE_MAX_CHARS = 100;
const MAX_DEPTH = 256;
// Tags read per feed, and per HTML text: a real feed of 512 KB has far fewer, and the limits keep
// a hostile one from costing more than a fraction of a second.
const MAX_TOKENS = 10000;
const MAX_HTML_TAGS = 10000;
// Raw text collected from HTML before it is cleaned and cut to 1,000 characters.
const HTML_TEXT_BUDGET = 16 * TEXT_MAX_CHARS;

const NS = {
  atom: "http://www.w3.org/2005/Atom",
  atom03: "http://purl.org/atom/ns#",
  rss1: "http://purl.org/rss/1.0/",
  rss09: "http://my.netscape.com/rdf/simple/0.9/",
  userland: "http://backend.userland.com/rss2",
  content: "http://purl.org/rss/1.0/modules/content/",
  dc: "http://purl.org/dc/elements/1.1/",
  media: "http://search.yahoo.com/mrss/",
  xml: "http://www.w3.org/XML/1998/namespace",
};

// Prefixes a sloppy feed uses without declaring them.
const WELL_KNOWN_PREFIXES = Object.create(null);
WELL_KNOWN_PREFIXES.atom = NS.atom;
WELL_KNOWN_PREFIXES.content = NS.content;
WELL_KNOWN_PREFIXES.dc = NS.dc;
WELL_KNOWN_PREFIXES.media = NS.media;
WELL_KNOWN_PREFIXES.xml = NS.xml;

function namespaceSet(list) {
  const set = Object.create(null);
  list.forEach((uri) => {
    set[uri] = true;
  });
  return set;
}

// RSS 0.9x/2.0 elements have no namespace; RSS 0.9 and 1.0 (RDF) have their own.
const RSS = namespaceSet(["", NS.rss1, NS.rss09, NS.userland]);
const ATOM = namespaceSet([NS.atom, NS.atom03]);
// Atom entries of a feed that forgot its xmlns.
const ATOM_OR_NONE = namespaceSet([NS.atom, NS.atom03, ""]);
const CONTENT = namespaceSet([NS.content]);
const DC = namespaceSet([NS.dc]);
const MEDIA = namespaceSet([NS.media]);

// ---------------------------------------------------------------------------------------------
// Text

const NAMED_ENTITIES = Object.create(null);
[
  ["amp", "&"], ["lt", "<"], ["gt", ">"], ["quot", "\""], ["apos", "'"], ["nbsp", "\u00a0"],
  ["hellip", "\u2026"], ["mdash", "\u2014"], ["ndash", "\u2013"], ["rsquo", "\u2019"],
  ["lsquo", "\u2018"], ["rdquo", "\u201d"], ["ldquo", "\u201c"], ["copy", "\u00a9"],
  ["reg", "\u00ae"], ["trade", "\u2122"],
].forEach((pair) => {
  NAMED_ENTITIES[pair[0]] = pair[1];
});

// Names that are decoded even without their semicolon, as browsers do.
const WITHOUT_SEMICOLON = namespaceSet(["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]);

const ENTITY = /&(?:#([0-9]{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/gu;

function codePointText(code) {
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) {
    return "\ufffd";
  }
  return String.fromCodePoint(code);
}

// Decodes character references in one pass ("&amp;lt;" becomes "&lt;", not "<"): the common
// named ones (case-sensitive, as in HTML) and every decimal or hexadecimal one; invalid code
// points become U+FFFD. Unknown names stay as written.
function decodeEntities(text) {
  if (typeof text !== "string" || text.indexOf("&") < 0) {
    return typeof text === "string" ? text : "";
  }
  return text.replace(ENTITY, (match, decimal, hex, name, semicolon) => {
    if (decimal) {
      return codePointText(parseInt(decimal, 10));
    }
    if (hex) {
      return codePointText(parseInt(hex, 16));
    }
    const value = NAMED_ENTITIES[name];
    if (value === undefined || (!semicolon && !WITHOUT_SEMICOLON[name])) {
      return match;
    }
    return value;
  });
}

const CONTROL_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b\ufeff]/gu;
const WHITESPACE_RUN = /[\t\n\u000b\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

// At most maxChars characters (code points), so that no emoji is cut in half.
function capChars(text, maxChars) {
  if (text.length <= maxChars) {
    return text;
  }
  return Array.from(text.slice(0, maxChars * 2)).slice(0, maxChars).join("").trim();
}

// Control characters removed, whitespace collapsed to single spaces, trimmed, capped.
function tidy(text, maxChars) {
  return capChars(text.replace(CONTROL_CHARS, "").replace(WHITESPACE_RUN, " ").trim(), maxChars);
}

// ---------------------------------------------------------------------------------------------
// Scanning markup

function isNameStart(ch) {
  return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || ch === "_" || ch === ":" || ch > "\u007f";
}

// The position just after the tag that starts at `start` ("<"): after its ">", skipping ">" in
// quoted attribute values. A tag never runs past the next "<" (no well-formed attribute value
// holds one), so a tag without its ">" ends there, and the scan costs no more than the tag.
function tagEnd(text, start) {
  let limit = text.indexOf("<", start + 1);
  if (limit < 0) {
    limit = text.length;
  }
  const tag = text.slice(start, limit);
  let pos = 1;
  let doubleQuote = tag.indexOf("\"", pos);
  let singleQuote = tag.indexOf("'", pos);
  for (;;) {
    const gt = tag.indexOf(">", pos);
    if (gt < 0) {
      return limit;
    }
    if (doubleQuote >= 0 && doubleQuote < pos) {
      doubleQuote = tag.indexOf("\"", pos);
    }
    if (singleQuote >= 0 && singleQuote < pos) {
      singleQuote = tag.indexOf("'", pos);
    }
    const dq = doubleQuote >= 0 && doubleQuote < gt ? doubleQuote : -1;
    const sq = singleQuote >= 0 && singleQuote < gt ? singleQuote : -1;
    const quote = dq < 0 ? sq : sq < 0 ? dq : Math.min(dq, sq);
    if (quote < 0) {
      return start + gt + 1;
    }
    const close = tag.indexOf(tag.charAt(quote), quote + 1);
    if (close < 0) {
      return start + gt + 1; // an unpaired quote stands for itself
    }
    pos = close + 1;
  }
}

// The position just after `marker` searched from `from`, or the end of the text.
function skipPast(text, marker, from) {
  const at = text.indexOf(marker, from);
  return at < 0 ? text.length : at + marker.length;
}

// The lowercase name of the tag whose name starts at `from`.
function readTagName(text, from, end) {
  let pos = from;
  while (pos < end) {
    const ch = text.charAt(pos);
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f" || ch === "/" || ch === ">") {
      break;
    }
    pos++;
  }
  return text.slice(from, pos).toLowerCase();
}

// name, then a double-quoted, single-quoted or unquoted value
const ATTRIBUTE = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/gu;

// An element's attributes as {lowercase name: decoded value}; the first occurrence wins.
function attributesOf(element) {
  if (!element.attributes) {
    element.attributes = readAttributes(element.rawAttributes);
  }
  return element.attributes;
}

// The attributes in the text of a tag after its name.
function readAttributes(text) {
  const attrs = Object.create(null);
  if (text.indexOf("=") < 0) {
    return attrs;
  }
  text.replace(ATTRIBUTE, (match, name, doubleQuoted, singleQuoted, unquoted) => {
    const key = name.toLowerCase();
    if (attrs[key] === undefined) {
      const value = doubleQuoted !== undefined ? doubleQuoted : singleQuoted !== undefined ? singleQuoted : unquoted;
      attrs[key] = value === undefined ? "" : decodeEntities(value);
    }
    return "";
  });
  return attrs;
}

// ---------------------------------------------------------------------------------------------
// Items and their fields
//
// The scan keeps a stack of open elements (name and namespace scope) but makes objects only for
// what is read later: each item or entry, its direct children, and the children of a
// <media:group> in it. Everything else costs a few array entries.

// The namespace scope of an element: its parent's, plus what its own xmlns attributes declare.
function scopeOf(rawAttributes, parentScope) {
  if (rawAttributes.indexOf("xmlns") < 0) {
    return parentScope;
  }
  const attrs = readAttributes(rawAttributes);
  let declared = null;
  for (const key in attrs) {
    if (key === "xmlns" || key.indexOf("xmlns:") === 0) {
      declared = declared || Object.create(parentScope);
      declared[key === "xmlns" ? "" : key.slice(6)] = attrs[key].trim();
    }
  }
  return declared || parentScope;
}

// The namespace of a prefix ("" for none) in a scope.
function namespaceOf(prefix, scope) {
  const bound = scope[prefix];
  if (typeof bound === "string") {
    return bound;
  }
  return prefix === "" ? "" : WELL_KNOWN_PREFIXES[prefix] || "urn:undeclared-prefix:" + prefix;
}

function makeElement(name, local, ns, rawAttributes, contentStart) {
  return {
    name: name,
    local: local,
    ns: ns,
    rawAttributes: rawAttributes,
    attributes: null,
    children: null, // filled for items, entries and media groups
    contentStart: contentStart,
    contentEnd: contentStart,
  };
}

function isItem(local, ns) {
  return (local === "item" && RSS[ns] === true) || (local === "entry" && ATOM_OR_NONE[ns] === true);
}

// Elements whose content is read as text, never as markup: their end tag is looked up directly,
// so HTML inside a description (escaped, in CDATA, or raw) costs one search instead of a tree.
const TEXT_FIELDS = namespaceSet([
  "title", "description", "encoded", "summary", "content", "pubdate", "date", "guid", "id",
  "updated", "published", "issued", "modified",
]);

// Children kept per item: real items have a few dozen.
const MAX_CHILDREN = 256;

// Finds the end tag </name> of a text field from `from`, skipping CDATA sections and comments.
// Searches only move forward through the text, so the positions of the next CDATA section and
// comment, and the names known to have no end tag further on, are remembered between calls: the
// whole scan stays linear.
function fieldEndFinder(text) {
  const noEndTag = Object.create(null);
  let nextCdata = -1;
  let nextComment = -1;
  const nextOf = (marker, from) => {
    const at = text.indexOf(marker, from);
    return at < 0 ? Infinity : at;
  };
  return (name, from) => {
    if (noEndTag[name]) {
      return -1;
    }
    let pos = from;
    for (;;) {
      const close = text.indexOf("</", pos);
      if (close < 0) {
        noEndTag[name] = true;
        return -1;
      }
      if (nextCdata < pos) {
        nextCdata = nextOf("<![CDATA[", pos);
      }
      if (nextComment < pos) {
        nextComment = nextOf("<!--", pos);
      }
      if (nextCdata < close) {
        pos = skipPast(text, "]]>", nextCdata + 9);
        continue;
      }
      if (nextComment < close) {
        pos = skipPast(text, "-->", nextComment + 4);
        continue;
      }
      const after = text.charAt(close + 2 + name.length);
      if (text.slice(close + 2, close + 2 + name.length).toLowerCase() === name &&
        (after === ">" || after === "" || after === " " || after === "\t" || after === "\n" || after === "\r")) {
        return close;
      }
      pos = close + 2;
    }
  };
}

// The items (RSS) or entries (Atom) of a document, outermost only, in order, each with its
// children. Scanning stops once `itemLimit` of them are complete, or after MAX_TOKENS tags;
// elements left open end where the scan stopped. Names and prefixes are compared lowercase.
function scanItems(text, itemLimit) {
  const findFieldEnd = fieldEndFinder(text);
  const rootScope = Object.create(null);
  rootScope.xml = NS.xml;

  // The open elements: name, scope and (for those read later) the element object.
  const names = [];
  const scopes = [];
  const elements = [];
  // How many elements of each name are open: end tags that match none are skipped at once.
  const openNames = Object.create(null);
  const items = [];
  let openItems = 0;
  let closedItems = 0;
  let tokens = 0;
  let pos = 0;
  const length = text.length;

  while (pos < length && closedItems < itemLimit && tokens < MAX_TOKENS) {
    const lt = text.indexOf("<", pos);
    if (lt < 0) {
      pos = length;
      break;
    }
    tokens++;
    const next = text.charAt(lt + 1);

    if (next === "!") {
      if (text.startsWith("<!--", lt)) {
        pos = skipPast(text, "-->", lt + 4);
      } else if (text.startsWith("<![CDATA[", lt)) {
        pos = skipPast(text, "]]>", lt + 9);
      } else {
        pos = tagEnd(text, lt); // <!DOCTYPE ...> and other declarations
      }
      continue;
    }
    if (next === "?") {
      pos = skipPast(text, "?>", lt + 2);
      continue;
    }

    if (next === "/") {
      const end = tagEnd(text, lt);
      const name = readTagName(text, lt + 2, end);
      // Close the innermost open element of that name, and any left open inside it.
      if (openNames[name] > 0) {
        for (;;) {
          const closedName = names.pop();
          const closed = elements.pop();
          scopes.pop();
          openNames[closedName]--;
          if (closed) {
            closed.contentEnd = lt;
            if (closed.children && isItem(closed.local, closed.ns)) {
              openItems--;
              closedItems++;
            }
          }
          if (closedName === name) {
            break;
          }
        }
      }
      pos = end;
      continue;
    }

    if (!isNameStart(next)) {
      pos = lt + 1; // a "<" in text
      continue;
    }

    const end = tagEnd(text, lt);
    pos = end;
    const inner = text.slice(lt + 1, text.charAt(end - 1) === ">" ? end - 1 : end);
    const selfClosing = inner.charAt(inner.length - 1) === "/";
    const name = readTagName(inner, 0, inner.length);
    const rawAttributes = inner.slice(name.length, selfClosing ? inner.length - 1 : inner.length);
    const depth = names.length;
    const parentScope = depth > 0 ? scopes[depth - 1] : rootScope;
    const parent = depth > 0 ? elements[depth - 1] : null;

    const scope = scopeOf(rawAttributes, parentScope);
    const colon = name.indexOf(":");
    const local = colon > 0 ? name.slice(colon + 1) : name;
    const ns = namespaceOf(colon > 0 ? name.slice(0, colon) : "", scope);

    let element = null;
    if (openItems === 0 && isItem(local, ns)) {
      element = makeElement(name, local, ns, rawAttributes, end);
      element.children = [];
      items.push(element);
      openItems++;
    } else if (parent && parent.children && parent.children.length < MAX_CHILDREN) {
      element = makeElement(name, local, ns, rawAttributes, end);
      parent.children.push(element);
      if (local === "group" && MEDIA[ns] === true) {
        element.children = [];
      }
    }

    if (selfClosing || depth >= MAX_DEPTH) {
      if (element && element.children && items[items.length - 1] === element) {
        openItems--; // <item/>
        closedItems++;
      }
      continue;
    }
    if (TEXT_FIELDS[local] && !(element && element.children)) {
      const close = findFieldEnd(name, end);
      if (close >= 0) {
        if (element) {
          element.contentEnd = close;
        }
        pos = tagEnd(text, close);
        continue;
      }
    }
    names.push(name);
    scopes.push(scope);
    elements.push(element);
    openNames[name] = (openNames[name] || 0) + 1;
  }

  for (let i = 0; i < elements.length; i++) {
    if (elements[i]) {
      elements[i].contentEnd = Math.min(pos, length);
    }
  }
  return items;
}

// The first direct child named `local` in one of the namespaces, or null.
function child(element, namespaces, local) {
  if (!element || !element.children) {
    return null;
  }
  for (let i = 0; i < element.children.length; i++) {
    const candidate = element.children[i];
    if (candidate.local === local && namespaces[candidate.ns] === true) {
      return candidate;
    }
  }
  return null;
}

function childrenNamed(element, namespaces, local) {
  return (element.children || []).filter((candidate) => candidate.local === local && namespaces[candidate.ns] === true);
}

// The raw source between an element's start and end tags.
function rawContent(text, element) {
  return element ? text.slice(element.contentStart, Math.max(element.contentStart, element.contentEnd)) : "";
}

// The character data of raw XML content: CDATA sections taken as they are, comments dropped, the
// rest with its character references decoded. Markup inside (an unescaped HTML description)
// stays, for stripHtml to remove.
function xmlText(raw) {
  if (raw.indexOf("<!") < 0) {
    return decodeEntities(raw);
  }
  const parts = [];
  let pos = 0;
  for (;;) {
    const cdata = raw.indexOf("<![CDATA[", pos);
    const comment = raw.indexOf("<!--", pos);
    const at = cdata < 0 ? comment : comment < 0 ? cdata : Math.min(cdata, comment);
    if (at < 0) {
      parts.push(decodeEntities(raw.slice(pos)));
      break;
    }
    parts.push(decodeEntities(raw.slice(pos, at)));
    if (at === cdata) {
      const close = raw.indexOf("]]>", at + 9);
      parts.push(raw.slice(at + 9, close < 0 ? raw.length : close));
      pos = close < 0 ? raw.length : close + 3;
    } else {
      pos = skipPast(raw, "-->", at + 4);
    }
  }
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------
// HTML to text

// Elements whose contents are code, not text.
const HIDDEN_ELEMENTS = ["script", "style"];

// Tags that separate words ("one<br>two" reads "one two"); other tags join ("H<b>e</b>llo").
const BREAKING_TAGS = namespaceSet([
  "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
  "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "img", "li", "main",
  "nav", "ol", "p", "pre", "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
]);

// The position of the end tag </name> at or after `from` (any case), or -1.
function findEndTag(text, name, from) {
  let pos = from;
  for (;;) {
    const at = text.indexOf("</", pos);
    if (at < 0) {
      return -1;
    }
    const after = text.charAt(at + 2 + name.length);
    if (text.slice(at + 2, at + 2 + name.length).toLowerCase() === name &&
      (after === "" || after === ">" || after === "/" || after === " " || after === "\t" || after === "\n" || after === "\r" || after === "\f")) {
      return at;
    }
    pos = at + 2;
  }
}

// Plain text of an HTML fragment: <script> and <style> removed with their contents, comments
// and every other tag removed, character references decoded, whitespace collapsed, trimmed and
// cut to 1,000 characters.
function stripHtml(html) {
  if (typeof html !== "string" || html === "") {
    return "";
  }
  const text = html.length > INPUT_MAX_CHARS ? html.slice(0, INPUT_MAX_CHARS) : html;
  const parts = [];
  const length = text.length;
  let collected = 0;
  let tags = 0;
  let pos = 0;

  // Enough text for 1,000 characters after decoding and collapsing, or the tag budget, ends it.
  while (pos < length && collected < HTML_TEXT_BUDGET && tags < MAX_HTML_TAGS) {
    const lt = text.indexOf("<", pos);
    const textEnd = lt < 0 ? length : lt;
    if (textEnd > pos) {
      parts.push(text.slice(pos, Math.min(textEnd, pos + HTML_TEXT_BUDGET - collected)));
      collected += textEnd - pos;
    }
    if (lt < 0) {
      break;
    }
    tags++;
    const next = text.charAt(lt + 1);

    if (text.startsWith("<!--", lt)) {
      pos = skipPast(text, "-->", lt + 4);
      parts.push(" ");
      continue;
    }
    if (next === "!" || next === "?") {
      pos = tagEnd(text, lt);
      continue;
    }
    if (next === "/" && isNameStart(text.charAt(lt + 2))) {
      const end = tagEnd(text, lt);
      parts.push(BREAKING_TAGS[readTagName(text, lt + 2, end)] ? " " : "");
      pos = end;
      continue;
    }
    if (!isNameStart(next)) {
      parts.push("<");
      collected++;
      pos = lt + 1;
      continue;
    }

    const end = tagEnd(text, lt);
    const name = readTagName(text, lt + 1, end);
    if (HIDDEN_ELEMENTS.indexOf(name) >= 0 && text.charAt(end - 2) !== "/") {
      const close = findEndTag(text, name, end);
      pos = close < 0 ? length : tagEnd(text, close);
      parts.push(" ");
      continue;
    }
    parts.push(BREAKING_TAGS[name] ? " " : "");
    pos = end;
  }

  return tidy(decodeEntities(parts.join("")), TEXT_MAX_CHARS);
}

// ---------------------------------------------------------------------------------------------
// Items

// Text content of an element that holds plain text (a link, a date, an id).
function plainText(text, element, maxChars) {
  return element ? tidy(xmlText(rawContent(text, element)), maxChars) : "";
}

// Text content of an element that may hold HTML (RSS titles and descriptions).
function htmlText(text, element, maxChars) {
  return element ? capChars(stripHtml(xmlText(rawContent(text, element))), maxChars) : "";
}

// An Atom text construct by its type: text, html (escaped markup) or xhtml (inline markup).
function atomText(text, element, maxChars) {
  if (!element || attributesOf(element).src !== undefined) {
    return "";
  }
  const type = String(attributesOf(element).type || "text").trim().toLowerCase();
  if (type === "text" || type === "text/plain") {
    return plainText(text, element, maxChars);
  }
  if (type === "html" || type === "text/html") {
    return htmlText(text, element, maxChars);
  }
  if (type === "xhtml" || type === "application/xhtml+xml") {
    return capChars(stripHtml(rawContent(text, element)), maxChars);
  }
  return "";
}

const HTTP_URL = /^https?:\/\/[^\s/?#]/iu;

// Only absolute http(s) addresses are passed on: the page links to them.
function httpUrl(value) {
  const url = value.trim();
  return url.length <= LINK_MAX_CHARS && HTTP_URL.test(url) ? url : "";
}

// The href of the first <link> whose rel is "alternate" or absent.
function atomLink(element, namespaces) {
  const links = childrenNamed(element, namespaces, "link");
  for (let i = 0; i < links.length; i++) {
    const rel = String(attributesOf(links[i]).rel || "alternate").trim().toLowerCase();
    const href = httpUrl(attributesOf(links[i]).href || "");
    if (rel === "alternate" && href) {
      return href;
    }
  }
  return "";
}

function firstNonEmpty(values) {
  for (let i = 0; i < values.length; i++) {
    const value = values[i]();
    if (value) {
      return value;
    }
  }
  return "";
}

// The Media RSS description of an item or entry, directly or in its <media:group>.
function mediaDescription(text, element) {
  const direct = child(element, MEDIA, "description") || child(child(element, MEDIA, "group"), MEDIA, "description");
  if (!direct) {
    return "";
  }
  const type = String(attributesOf(direct).type || "plain").trim().toLowerCase();
  return type === "html" ? htmlText(text, direct, TEXT_MAX_CHARS) : plainText(text, direct, TEXT_MAX_CHARS);
}

function readRssItem(text, item) {
  const guid = child(item, RSS, "guid");
  const guidText = plainText(text, guid, ID_MAX_CHARS);
  const linkElement = child(item, RSS, "link");
  const permalink = guid && String(attributesOf(guid).ispermalink || "true").trim().toLowerCase() !== "false" ? httpUrl(guidText) : "";
  return {
    id: guidText || String(attributesOf(item)["rdf:about"] || "").trim().slice(0, ID_MAX_CHARS),
    title: firstNonEmpty([
      () => htmlText(text, child(item, RSS, "title"), TITLE_MAX_CHARS),
      () => htmlText(text, child(item, DC, "title"), TITLE_MAX_CHARS),
      () => htmlText(text, child(item, MEDIA, "title"), TITLE_MAX_CHARS),
    ]),
    description: firstNonEmpty([
      () => htmlText(text, child(item, RSS, "description"), TEXT_MAX_CHARS),
      () => htmlText(text, child(item, CONTENT, "encoded"), TEXT_MAX_CHARS),
      () => atomText(text, child(item, ATOM, "summary"), TEXT_MAX_CHARS),
      () => mediaDescription(text, item),
    ]),
    pubDate: firstNonEmpty([
      () => plainText(text, child(item, RSS, "pubdate"), DATE_MAX_CHARS),
      () => plainText(text, child(item, DC, "date"), DATE_MAX_CHARS),
      () => plainText(text, child(item, ATOM, "published"), DATE_MAX_CHARS),
      () => plainText(text, child(item, ATOM, "updated"), DATE_MAX_CHARS),
    ]),
    link: firstNonEmpty([
      () => httpUrl(plainText(text, linkElement, LINK_MAX_CHARS)),
      () => httpUrl(linkElement ? String(attributesOf(linkElement).href || "") : ""),
      () => atomLink(item, ATOM),
      () => permalink,
    ]),
  };
}

function readAtomEntry(text, entry) {
  return {
    id: plainText(text, child(entry, ATOM_OR_NONE, "id"), ID_MAX_CHARS),
    title: atomText(text, child(entry, ATOM_OR_NONE, "title"), TITLE_MAX_CHARS),
    description: firstNonEmpty([
      () => atomText(text, child(entry, ATOM_OR_NONE, "summary"), TEXT_MAX_CHARS),
      () => atomText(text, child(entry, ATOM_OR_NONE, "content"), TEXT_MAX_CHARS),
      () => mediaDescription(text, entry),
    ]),
    pubDate: firstNonEmpty([
      () => plainText(text, child(entry, ATOM_OR_NONE, "published"), DATE_MAX_CHARS),
      () => plainText(text, child(entry, ATOM_OR_NONE, "updated"), DATE_MAX_CHARS),
      () => plainText(text, child(entry, ATOM_OR_NONE, "issued"), DATE_MAX_CHARS),
      () => plainText(text, child(entry, ATOM_OR_NONE, "modified"), DATE_MAX_CHARS),
    ]),
    link: atomLink(entry, ATOM_OR_NONE),
  };
}

// The items of an RSS (0.9x, 1.0, 2.0) or Atom feed, at most `limit` (default 30), in feed order:
// [{id, title, description, pubDate, link}], every field a string. title and description are
// plain text (tags removed, references decoded, at most 300 and 1,000 characters); pubDate is as
// the feed writes it; link is an absolute http(s) address or "". id is the item's guid or id,
// else its link, else its title (made unique within the answer). Items with neither title nor
// description are left out. Input beyond 512 KB is ignored.
function parseFeed(xmlText, limit) {
  if (typeof xmlText !== "string" || xmlText === "") {
    return [];
  }
  const max = typeof limit === "number" && isFinite(limit) ? Math.max(0, Math.floor(limit)) : DEFAULT_LIMIT;
  if (max === 0) {
    return [];
  }
  const text = xmlText.length > INPUT_MAX_CHARS ? xmlText.slice(0, INPUT_MAX_CHARS) : xmlText;
  // Look a little further than the limit: items without any text are skipped.
  const scanLimit = max * 2 + 10;
  const raw = scanItems(text, scanLimit).map((item) =>
    item.local === "item" ? readRssItem(text, item) : readAtomEntry(text, item));

  const items = [];
  const seen = Object.create(null);
  for (let i = 0; i < raw.length && items.length < max; i++) {
    const item = raw[i];
    if (!item.title && !item.description) {
      continue;
    }
    let id = item.id || item.link || item.title || capChars(item.description, 200);
    if (seen[id]) {
      let n = 2;
      while (seen[id + "#" + n]) {
        n++;
      }
      id = id + "#" + n;
    }
    seen[id] = true;
    items.push({ id: id, title: item.title, description: item.description, pubDate: item.pubDate, link: item.link });
  }
  return items;
}

module.exports = { parseFeed, stripHtml, decodeEntities };
