package main

// Decoding fetched pages and feeds to UTF-8. HTML follows the browsers' rules
// (golang.org/x/net/html/charset); XML follows RFC 7303 (byte order mark, then the charset
// parameter, then the encoding in the XML declaration, else UTF-8). Labels are often wrong: a
// document labelled (or defaulting to) UTF-8 that is not valid UTF-8 is read by its own
// declaration instead, else as windows-1252, the encoding such documents nearly always use.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// xmlDeclarationMaxBytes is how far into a document the XML declaration is looked for.
const xmlDeclarationMaxBytes = 1024

// decodeHTML converts an HTML page to UTF-8: by its byte order mark, the charset of its
// Content-Type header, a <meta> charset in its first 1024 bytes, else UTF-8 when the bytes are
// valid UTF-8, else windows-1252.
func decodeHTML(raw []byte, contentType string) string {
	enc, name, _ := charset.DetermineEncoding(raw, contentType)
	if name == "utf-8" && !validUTF8(raw) {
		// Labelled UTF-8 but it is not: the page's own <meta>, else windows-1252.
		if declared, declaredName, _ := charset.DetermineEncoding(raw, ""); declaredName != "utf-8" {
			enc = declared
		}
	}
	return decodeWith(enc, raw)
}

// decodeXML converts an XML document (a feed) to UTF-8: by its byte order mark, the charset of
// its Content-Type header, the encoding of its XML declaration, else UTF-8; not valid UTF-8
// although labelled so, by its declaration, else windows-1252.
func decodeXML(raw []byte, contentType string) string {
	declared := xmlDeclaredEncoding(raw)
	label := charsetParam(contentType)
	if label == "" {
		label = declared
	}
	enc, name := lookupCharset(label)
	if name == "utf-8" && !validUTF8(raw) {
		if enc, name = lookupCharset(declared); name == "utf-8" {
			enc = charmap.Windows1252
		}
	}
	// A byte order mark overrides every label.
	decoded, _, err := transform.Bytes(unicode.BOMOverride(enc.NewDecoder()), raw)
	if err != nil {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	return strings.ToValidUTF8(string(decoded), "\uFFFD")
}

func decodeWith(enc encoding.Encoding, raw []byte) string {
	decoded, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	return strings.ToValidUTF8(string(decoded), "\uFFFD")
}

// lookupCharset finds an encoding by its WHATWG label ("latin1" and "iso-8859-1" are
// windows-1252, as in browsers); unknown or empty labels give UTF-8.
func lookupCharset(label string) (encoding.Encoding, string) {
	if label != "" {
		if enc, name := charset.Lookup(label); enc != nil {
			return enc, name
		}
	}
	return unicode.UTF8, "utf-8"
}

// charsetParam is the charset parameter of a Content-Type header, or "".
func charsetParam(contentType string) string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(params["charset"])
}

var errDeclarationRead = errors.New("declaration read")

// xmlDeclaredEncoding is the encoding named in a document's XML declaration
// (<?xml version="1.0" encoding="ISO-8859-1"?>), or "" when there is none or it names UTF-8.
// encoding/xml reads the declaration and hands the label to its CharsetReader.
func xmlDeclaredEncoding(raw []byte) string {
	head := raw[:min(len(raw), xmlDeclarationMaxBytes)]
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return ""
	}
	var label string
	d := xml.NewDecoder(bytes.NewReader(head))
	d.Strict = false
	d.CharsetReader = func(name string, _ io.Reader) (io.Reader, error) {
		label = name
		return nil, errDeclarationRead
	}
	_, _ = d.RawToken()
	return label
}

// stripXMLDeclaration removes the XML declaration (and a byte order mark) from the start of a
// decoded document, so that a parser does not decode it a second time by its declared encoding.
func stripXMLDeclaration(text string) string {
	text = strings.TrimPrefix(text, "\uFEFF")
	if len(text) > 5 && strings.HasPrefix(text, "<?xml") && isXMLSpace(text[5]) {
		if end := strings.Index(text, "?>"); end >= 0 {
			return text[end+2:]
		}
	}
	return text
}

func isXMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// validUTF8 reports whether raw is UTF-8, ignoring a character cut at the end (bodies are cut at
// a byte limit).
func validUTF8(raw []byte) bool {
	for cut := 0; cut < utf8.UTFMax && cut < len(raw); cut++ {
		end := len(raw) - cut
		if utf8.RuneStart(raw[end-1]) {
			if !utf8.FullRune(raw[end-1:]) {
				raw = raw[:end-1]
			}
			break
		}
	}
	return utf8.Valid(raw)
}
