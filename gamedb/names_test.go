package gamedb

import "testing"

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

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"anand", "anandv", 1}, {"carlsn", "carlsen", 1}, {"kitten", "sitting", 3}, {"abc", "", 3}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}
