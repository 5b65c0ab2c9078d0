package gamedb

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Carlsen, M", "carlsenm"},
		{"carlsen,m", "carlsenm"},
		{"CARLSEN M.", "carlsenm"},
		{"Anand, Viswanathan", "anandviswanathan"},
		{"Ljubojević, Ljubomir", "ljubojevicljubomir"},
		{"Ljubojevic,L", "ljubojevicl"},
		{"Nielsen, Peter Heine", "nielsenpeterheine"},
		{"Øst-Hansen", "osthansen"},
		{"Großmann", "grossmann"},
		{"Łukasz", "lukasz"},
		{"Ñuñez", "nunez"},
		{"Карпов, Анатолий", "карпованатолии"}, // marks go in every script: й is и and a breve
		{"?", ""},
		{" - ", ""},
		{"", ""},
		{"Deep Blue 2", "deepblue2"},
		{"Ｃａｒｌｓｅｎ，Ｍ", "carlsenm"}, // full-width forms (NFKD)
		{"ﬁscher", "fischer"},
		{"Ｋａｒｐｏｖ２", "karpov2"},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := make([]byte, 0, 600)
	for range 300 {
		long = append(long, "é"...)
	}
	if got := Normalize(string(long)); len(got) != maxNameBytes {
		t.Errorf("a 300-letter name normalizes to %d bytes, want %d", len(got), maxNameBytes)
	}
	cyr := make([]byte, 0, 600)
	for range 150 {
		cyr = append(cyr, "Ж"...)
	}
	if got := Normalize(string(cyr)); len(got) > maxNameBytes || len(got)%2 != 0 {
		t.Errorf("150 Cyrillic letters normalize to %d bytes: cut inside a letter or too long", len(got))
	}
}

func TestSiteName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://lichess.org/ijBX4aWv", "lichess.org"},
		{" https://www.chess.com/game/live/123 ", "chess.com"},
		{"http://example.org?x=1", "example.org"},
		{"Wijk aan Zee NED", "Wijk aan Zee NED"},
		{"?", "?"},
	} {
		if got := string(siteName([]byte(c.in))); got != c.want {
			t.Errorf("siteName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMatchDistance(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       int
	}{{"carlsen", "carlsenm", 0}, {"carlsn", "carlsenm", 1}, {"stenitz", "steinitzwilliam", 1}, {"anand", "anandv", 0},
		{"xyz", "anand", 3}, {"", "anand", 0}, {"anandd", "anandv", 1}} {
		if got := MatchDistance(c.text, c.name); got != c.want {
			t.Errorf("MatchDistance(%q, %q) = %d, want %d", c.text, c.name, got, c.want)
		}
	}
}

// TestFoldEveryRune: every rune past ASCII folds as the package
// documentation says, by its whole NFKD form (norm.NFKD.String): each
// letter or digit of it lower-cased, the rest (marks among it) dropped.
func TestFoldEveryRune(t *testing.T) {
	var got, want []byte
	bad := 0
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		got = appendFolded(got[:0], r)
		want = want[:0]
		if s, ok := foldSpecial[r]; ok {
			want = append(want, s...)
		} else {
			for _, x := range norm.NFKD.String(string(r)) {
				if !unicode.Is(unicode.Mn, x) && (unicode.IsLetter(x) || unicode.IsDigit(x)) {
					want = utf8.AppendRune(want, unicode.ToLower(x))
				}
			}
		}
		if string(got) != string(want) {
			if bad++; bad <= 10 {
				t.Errorf("%U %q folds to %q, want %q", r, r, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d runes fold wrong", bad)
	}
}

// TestAppendNormalAllocs: normalizing a name with accents allocates
// nothing (the builder does it for every game's players, event and site).
func TestAppendNormalAllocs(t *testing.T) {
	name := []byte("Ljubojević, Ljubomir; Šćepović; Карпов, Анатолий; Øst-Hansen")
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { buf = appendNormal(buf[:0], name) }); n != 0 {
		t.Errorf("appendNormal allocates %v times", n)
	}
}

// BenchmarkAppendNormal normalizes a name with four accented letters.
func BenchmarkAppendNormal(b *testing.B) {
	name := []byte("Ljubojević, Ljubomir Šćepović")
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = appendNormal(buf[:0], name)
	}
}
