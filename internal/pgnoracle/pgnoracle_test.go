package pgnoracle

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestParse reads the PGN oddities of testdata/pgn/mixed.pgn.bz2: escaped
// quotes, nested variations and comments, NAGs, a game of tags only, a
// game without tags glued to the one before, lichess's comments.
func TestParse(t *testing.T) {
	games := Read(t, "../../testdata/pgn/mixed.pgn.bz2")
	type want struct {
		event, termination string
		moves              []string
	}
	wants := []want{
		{"escapes", "1-0", []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}},
		{`Tournament "Championship" Finals`, "*", []string{"d4", "Nf6", "c4", "e6", "Nc3", "Bb4"}},
		{"no moves", "*", nil},
		{"header only", "", nil},
		{"missing result", "", []string{"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"}},
		// The game without tags is read as the movetext of the one before.
		{"null move and glued numbers", "1-0", []string{"e4", "e5", "--", "Nc6", "d4", "exd4", "Bc5", "O-O", "d4", "d5", "c4", "e6"}},
		{"lichess comments", "0-1", []string{"f3", "e5", "g4", "Qh4"}},
	}
	if len(games) != len(wants) {
		t.Fatalf("%d games, want %d", len(games), len(wants))
	}
	for i, w := range wants {
		g := games[i]
		if g.Tags["Event"] != w.event || g.Termination != w.termination || !slices.Equal(g.Moves, w.moves) {
			t.Errorf("game %d: %q %q %q, want %q %q %q", i, g.Tags["Event"], g.Termination, g.Moves, w.event, w.termination, w.moves)
		}
	}
	if g := games[0]; g.Tags["White"] != `New-cfe8"dsadsa"ce842c` || g.Tags["Black"] != `back\slash` {
		t.Errorf("escapes: %q %q", g.Tags["White"], g.Tags["Black"])
	}
	if g := Parse([]byte("[White \"Andr\xe9\"]\r\n[Black \"x\"]\r\n\r\n1. e4 *\r\n")); len(g) != 1 || g[0].Tags["White"] != "André" || !slices.Equal(g[0].Moves, []string{"e4"}) {
		t.Errorf("Latin-1 and CRLF: %+v", g)
	}
}

// TestReadFile: a .gz and a .zst file read as the plain one.
func TestReadFile(t *testing.T) {
	plain := []byte("[Event \"a\"]\n\n1. e4 e5 1-0\n")
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "a.pgn.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.pgn"), plain, 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"a.pgn", "a.pgn.gz"}
	if zstd, err := exec.LookPath("zstd"); err == nil {
		if out, err := exec.Command(zstd, "-q", filepath.Join(dir, "a.pgn"), "-o", filepath.Join(dir, "a.pgn.zst")).CombinedOutput(); err != nil {
			t.Fatalf("zstd: %v %s", err, out)
		}
		files = append(files, "a.pgn.zst")
	}
	for _, f := range files {
		text, err := ReadFile(filepath.Join(dir, f))
		if err != nil || !bytes.Equal(text, plain) {
			t.Errorf("%s: %q, %v", f, text, err)
		}
	}
}

// TestSpeed: lichess's bounds, each side of each.
func TestSpeed(t *testing.T) {
	for tc, want := range map[string]string{
		"-": "correspondence", "": "", "?": "", "abc": "", "60+": "", "+5": "", "-5+0": "",
		"0+0": "ultraBullet", "29": "ultraBullet", "29+0": "ultraBullet", "30+0": "bullet", "0+1": "bullet",
		"179+0": "bullet", "180": "blitz", "60+3": "blitz", "479+0": "blitz", "480+0": "rapid",
		"1499+0": "rapid", "1500+0": "classical", "1460+1": "classical", "21599+0": "classical",
		"21600+0": "correspondence", "0+540": "correspondence",
	} {
		if got := Speed(tc); got != want {
			t.Errorf("Speed(%q) = %q, want %q", tc, got, want)
		}
	}
}

// TestBandAndDate: the mean rating's band, rounded down, and dates.
func TestBandAndDate(t *testing.T) {
	for _, c := range []struct {
		w, b string
		want int
	}{{"", "1500", -1}, {"0", "1500", -1}, {"?", "1500", -1}, {"999", "1000", 0}, {"1000", "1001", 1},
		{"1999", "2000", 5}, {"2000", "2000", 6}, {"2499", "2500", 7}, {"2500", "2500", 8}, {"3000", "2800", 8}} {
		if got := Band(c.w, c.b); got != c.want {
			t.Errorf("Band(%q, %q) = %d, want %d", c.w, c.b, got, c.want)
		}
	}
	for s, want := range map[string][3]int{
		"2024.06.15": {2024, 6, 15}, "2024.??.??": {2024, 0, 0}, "2024.06.??": {2024, 6, 0}, "????.??.??": {0, 0, 0},
		"2024-06-15": {2024, 6, 15}, "2024.13.01": {2024, 0, 0}, "1886": {1886, 0, 0}, "": {0, 0, 0},
	} {
		if y, m, d := Date(s); [3]int{y, m, d} != want {
			t.Errorf("Date(%q) = %d %d %d, want %v", s, y, m, d, want)
		}
	}
}
