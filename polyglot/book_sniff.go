package polyglot

import (
	"bytes"
	"unicode/utf8"
)

// sniffLen is how much of the data sniff looks at.
const sniffLen = 512

// sniff guesses what data is when it is not a book, for an error message:
// "it looks like an HTML page, probably a failed download", or "" when
// the data has no recognisable signature. A real book starts with a
// (random-looking, usually small) 64-bit key, which none of these match in
// practice.
func sniff(data []byte) string {
	head := data[:min(len(data), sniffLen)]
	for _, m := range magics {
		if bytes.HasPrefix(head, m.prefix) {
			return "it looks like " + m.what
		}
	}
	text := bytes.TrimLeft(head, "\ufeff \t\r\n")
	if len(text) == 0 {
		return ""
	}
	lower := bytes.ToLower(text)
	switch {
	case bytes.HasPrefix(lower, []byte("<!doctype html")), bytes.HasPrefix(lower, []byte("<html")),
		bytes.HasPrefix(lower, []byte("<")) && bytes.Contains(lower, []byte("<html")):
		return "it looks like an HTML page, probably a failed download"
	case bytes.HasPrefix(lower, []byte("<?xml")):
		return "it looks like an XML file"
	case bytes.HasPrefix(text, []byte("version https://git-lfs")):
		return "it looks like a Git LFS pointer file, not the file it points to"
	case bytes.HasPrefix(text, []byte("[Event ")) || bytes.HasPrefix(text, []byte("1.")):
		if isText(head) {
			return "it looks like a PGN file: build a book from it first"
		}
	}
	if isText(head) {
		return "it looks like a text file"
	}
	return ""
}

// magics are the signatures of file types a book is commonly confused with.
var magics = []struct {
	prefix []byte
	what   string
}{
	{[]byte("\x1f\x8b"), "a gzip-compressed file: unpack it first"},
	{[]byte("\x28\xb5\x2f\xfd"), "a zstd-compressed file: unpack it first"},
	{[]byte("BZh"), "a bzip2-compressed file: unpack it first"},
	{[]byte("\xfd7zXZ\x00"), "an xz-compressed file: unpack it first"},
	{[]byte("PK\x03\x04"), "a zip archive: unpack it first"},
	{[]byte("7z\xbc\xaf\x27\x1c"), "a 7-Zip archive: unpack it first"},
	{[]byte("Rar!\x1a\x07"), "a RAR archive: unpack it first"},
}

// isText reports whether b is valid UTF-8 (a rune cut at the end allowed)
// without control characters other than white space.
func isText(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' || r == 0x7f {
			return false
		}
		b = b[n:]
	}
	return true
}
