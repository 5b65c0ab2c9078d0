package pgn

import (
	"testing"
	"unicode/utf8"
)

func TestAppendUTF8(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain ASCII", "plain ASCII"},
		{"M\xfcller", "Müller"}, // Latin-1
		{"Müller", "Müller"},    // UTF-8 stays
		{"Kr\xe0mn\xeck Vl\xe3\xdadimir", "Kràmnìk VlãÚdimir"},
		{"\x80\x8a\x9f\x81", "€ŠŸ\u0081"}, // Windows-1252 range
		{"\xa0\xff", "\u00a0ÿ"},
		{"mixed Müller and M\xfcller", "mixed Müller and Müller"},
		{"truncated \xc3", "truncated Ã"},
		{"\xef\xbf\xbd", "\ufffd"}, // a real U+FFFD is valid UTF-8
	} {
		got := string(AppendUTF8(nil, []byte(tc.in)))
		if got != tc.want {
			t.Errorf("AppendUTF8(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("AppendUTF8(%q) is not valid UTF-8", tc.in)
		}
	}
	if got := string(AppendUTF8([]byte("a:"), []byte("\xe9"))); got != "a:é" {
		t.Errorf("append to prefix: %q", got)
	}
}

func TestAppendUTF8NoAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	src := []byte("M\xfcller, J\xf6rg \x80")
	if n := testing.AllocsPerRun(100, func() { buf = AppendUTF8(buf[:0], src) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
