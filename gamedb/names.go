package gamedb

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names. Players, events and sites are found by their normalized form: the
// letters and digits of the name, lower-cased, accents removed (é -> e,
// ø -> o, ß -> ss), everything else (spaces, punctuation) dropped. So
// "Carlsen, M", "carlsen,m" and "CARLSEN M." are one name, "carlsenm", and
// "Ljubojević" matches "Ljubojevic"; compatibility forms fold too
// (NFKD): full-width "Ｃａｒｌｓｅｎ" is "carlsen", "ﬁ" is "fi". A name
// with no letter or digit ("?", "-", "") normalizes to "" and is not
// indexed.

// maxNameBytes bounds a name's normalized form and its raw spelling in
// the index (longer tags are cut at a character boundary).
const maxNameBytes = 200

// Normalize returns the normalized form of name (see the package
// documentation).
func Normalize(name string) string { return string(appendNormal(nil, []byte(name))) }

// appendNormal appends the normalized form of name to dst.
func appendNormal(dst, name []byte) []byte {
	start := len(dst)
	for i := 0; i < len(name) && len(dst)-start < maxNameBytes; {
		c := name[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				dst = append(dst, c)
			case 'A' <= c && c <= 'Z':
				dst = append(dst, c+'a'-'A')
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		i += n
		dst = appendFolded(dst, r)
	}
	if len(dst)-start > maxNameBytes {
		dst = dst[:start+cutUTF8(dst[start:], maxNameBytes)]
	}
	return dst
}

// foldSpecial maps the letters that do not decompose into a base letter
// and marks.
var foldSpecial = map[rune]string{
	'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d",
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ı': "i", 'þ': "th", 'Þ': "th",
}

// appendFolded appends rune r, not ASCII, folded: lower-cased, without
// its accents, dropped unless a letter or digit. It allocates nothing
// but for a Hangul syllable.
func appendFolded(dst []byte, r rune) []byte {
	if s, ok := foldSpecial[r]; ok {
		return append(dst, s...)
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	// r's NFKD form: its compatibility decomposition, from the tables
	// (r itself when it has none), but for the Hangul syllables, which
	// decompose by rule. Compatibility folds the forms of a letter that
	// only look different: full-width "Ｃ" is "C", the ligature "ﬁ" is
	// "fi", "²" is "2".
	nfd := norm.NFKD.Properties(buf[:n]).Decomposition()
	switch {
	case hangulFirst <= r && r <= hangulLast:
		nfd = norm.NFKD.AppendString(nil, string(r))
	case nfd == nil:
		nfd = buf[:n]
	}
	for _, x := range string(nfd) {
		switch {
		case unicode.Is(unicode.Mn, x):
		case 'a' <= x && x <= 'z', '0' <= x && x <= '9':
			dst = append(dst, byte(x))
		case 'A' <= x && x <= 'Z':
			dst = append(dst, byte(x)+'a'-'A')
		case x < utf8.RuneSelf:
		case unicode.IsLetter(x) || unicode.IsDigit(x):
			dst = utf8.AppendRune(dst, unicode.ToLower(x))
		}
	}
	return dst
}

// The Hangul syllables (their NFKD form is not in the decomposition
// tables).
const hangulFirst, hangulLast = 0xAC00, 0xD7A3

// cutUTF8 returns the length of the longest prefix of b of at most n
// bytes that ends at a character boundary.
func cutUTF8(b []byte, n int) int {
	if len(b) <= n {
		return len(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// trimRaw returns a tag value as the index spells it: without white
// space around it (Unicode's, a no-break space included), cut to
// maxNameBytes.
func trimRaw(v []byte) []byte {
	v = bytes.TrimSpace(v)
	return v[:cutUTF8(v, maxNameBytes)]
}

// siteName returns what the index keeps of a Site tag: a URL's host
// (without "www."), since sites such as lichess name each game by its own
// URL; anything else as it is.
func siteName(v []byte) []byte {
	v = trimRaw(v)
	for i := 0; i+3 <= len(v); i++ {
		if v[i] == ':' && v[i+1] == '/' && v[i+2] == '/' {
			host := v[i+3:]
			for j, c := range host {
				if c == '/' || c == '?' || c == '#' {
					host = host[:j]
					break
				}
			}
			if len(host) > 4 && string(host[:4]) == "www." {
				host = host[4:]
			}
			return host
		}
	}
	return v
}

// MatchDistance returns the least edit distance between text and a part
// of name (any run of its bytes): 0 when name contains text, 1 when it
// contains text with one letter wrong, missing or extra, and so on. It
// ranks the names to suggest for a text no name contains.
func MatchDistance(text, name string) int {
	prev := make([]int, len(name)+1) // a match may start anywhere: row 0 is zeros
	cur := make([]int, len(name)+1)
	for i := 1; i <= len(text); i++ {
		cur[0] = i
		for j := 1; j <= len(name); j++ {
			cost := 1
			if text[i-1] == name[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return slices.Min(prev)
}
