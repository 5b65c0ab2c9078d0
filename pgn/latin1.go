package pgn

import "unicode/utf8"

// cp1252 maps the bytes 0x80-0x9F to the characters Windows-1252 puts
// there. Files said to be Latin-1 (ISO-8859-1) are in practice written by
// Windows tools, and the C1 control characters that strict Latin-1 has at
// these positions never occur in names; this is also how the WHATWG
// Encoding Standard decodes "iso-8859-1". The five bytes Windows-1252 leaves
// undefined keep their Latin-1 meaning.
var cp1252 = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// AppendUTF8 appends src to dst as UTF-8 and returns the extended slice.
// Valid UTF-8 sequences in src are copied unchanged; every byte that is not
// part of one is taken as a Latin-1 character (with 0x80-0x9F read as
// Windows-1252, see above) and encoded as UTF-8. Pure ASCII and valid UTF-8
// input therefore come out byte for byte identical.
func AppendUTF8(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		if r, n := utf8.DecodeRune(src[i:]); r != utf8.RuneError || n > 1 {
			dst = append(dst, src[i:i+n]...)
			i += n
			continue
		}
		dst = appendLatin1(dst, c)
		i++
	}
	return dst
}

// appendLatin1 appends the UTF-8 encoding of the Latin-1 (Windows-1252 in
// 0x80-0x9F) character c >= 0x80.
func appendLatin1(dst []byte, c byte) []byte {
	if c < 0xA0 {
		return utf8.AppendRune(dst, cp1252[c-0x80])
	}
	return append(dst, 0xC0|c>>6, 0x80|c&0x3F)
}
