package main

// repairXML rebuilds a feed that is not well-formed XML (a stray "<" or "&", a misspelt end tag,
// an end tag that never comes, a document cut off) into one gofeed can read. It reads the input
// the way browsers read broken markup, with golang.org/x/net/html's tokenizer, and writes the
// tags, text and CDATA sections back out as XML:
//
//   - an end tag closes the innermost open element of its name and every element left open inside
//     it; an end tag that matches no open element is dropped; what is open at the end is closed;
//   - elements nested deeper than 256 levels, and names other than plain ASCII ones, are dropped
//     (their text is kept);
//   - comments, doctypes and processing instructions are dropped; text and CDATA sections are
//     written as escaped text, without the characters XML does not allow;
//   - names come out lowercase (gofeed compares them without case), except that isPermaLink gets
//     its capital back.

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

const repairMaxDepth = 256

var (
	cdataStart = []byte("<![CDATA[")
	cdataEnd   = []byte("]]>")
)

// repairedAttrNames restores the case of attribute names feeds read case-sensitively.
var repairedAttrNames = map[string]string{"ispermalink": "isPermaLink"}

func repairXML(text string) []byte {
	z := html.NewTokenizer(strings.NewReader(text))
	z.AllowCDATA(true)
	var out strings.Builder
	out.Grow(len(text) + len(text)/8)
	var open []string
	openCount := map[string]int{}

	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			for i := len(open) - 1; i >= 0; i-- {
				out.WriteString("</" + open[i] + ">")
			}
			return []byte(out.String())

		case html.TextToken:
			// A CDATA section's text is taken as it is; other text has its references decoded.
			// Both are written escaped, which gofeed reads back to the same text.
			if raw := z.Raw(); bytes.HasPrefix(raw, cdataStart) {
				writeXMLText(&out, string(bytes.TrimSuffix(raw[len(cdataStart):], cdataEnd)))
			} else {
				writeXMLText(&out, string(z.Text()))
			}

		case html.StartTagToken, html.SelfClosingTagToken:
			// Feeds have no raw text elements: <title> holds character data like any other.
			z.NextIsNotRawText()
			rawName, _ := z.TagName()
			name := string(rawName)
			if !isXMLName(name) || len(open) >= repairMaxDepth {
				continue
			}
			out.WriteString("<" + name)
			writeXMLAttributes(&out, z)
			if tt == html.SelfClosingTagToken {
				out.WriteString("/>")
				continue
			}
			out.WriteByte('>')
			open = append(open, name)
			openCount[name]++

		case html.EndTagToken:
			rawName, _ := z.TagName()
			name := string(rawName)
			if openCount[name] == 0 {
				continue
			}
			for {
				last := open[len(open)-1]
				open = open[:len(open)-1]
				openCount[last]--
				out.WriteString("</" + last + ">")
				if last == name {
					break
				}
			}
		}
	}
}

func writeXMLAttributes(out *strings.Builder, z *html.Tokenizer) {
	seen := map[string]bool{}
	for more := true; more; {
		var key, value []byte
		key, value, more = z.TagAttr()
		name := string(key)
		if !isXMLName(name) || seen[name] {
			continue
		}
		seen[name] = true
		if restored, ok := repairedAttrNames[name]; ok {
			name = restored
		}
		out.WriteString(" " + name + `="`)
		writeXMLText(out, string(value))
		out.WriteByte('"')
	}
}

// writeXMLText writes text escaped for XML (as character data or an attribute value), without
// the characters XML does not allow.
func writeXMLText(out *strings.Builder, text string) {
	for _, r := range text {
		switch {
		case !isXMLChar(r):
		case r == '&':
			out.WriteString("&amp;")
		case r == '<':
			out.WriteString("&lt;")
		case r == '>':
			out.WriteString("&gt;")
		case r == '"':
			out.WriteString("&quot;")
		default:
			out.WriteRune(r)
		}
	}
}

// isXMLChar reports the characters XML 1.0 allows in documents.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0a || r == 0x0d ||
		r >= 0x20 && r <= 0xd7ff ||
		r >= 0xe000 && r <= 0xfffd ||
		r >= 0x10000 && r <= 0x10ffff
}

// isXMLName reports the names kept: ASCII letters or "_" first, then letters, digits, ".", "-"
// and "_", with at most one ":" between a prefix and a local name (feeds use no others).
func isXMLName(name string) bool {
	if name == "" || strings.Count(name, ":") > 1 || strings.HasPrefix(name, ":") || strings.HasSuffix(name, ":") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}
