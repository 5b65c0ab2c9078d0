package ingest_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/ingest"
)

// binaryGarbage returns n random bytes (of seed) that begin with a
// control character, as a damaged block of a file does.
func binaryGarbage(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 37))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	b[0] = 0x05
	return string(b)
}

// TestRunBinaryRegion: 3,000 random bytes in a PGN file, between two
// games, inside a game, glued to the next game's first tag, at the
// start, at the end, and in a file whose games have no tags; inside a
// game's tags, the rest of that game's tags after it. Every game
// the data does not touch is stored whole, with all its tags and moves;
// the region is reported once, with its first line, as one skipped item
// ("binary data"), the game it cuts in it; nothing is counted twice. (It
// was "not PGN: a binary file" for the whole file when the data came in
// its first 64 KiB, and junk games or a lost tag when later.)
func TestRunBinaryRegion(t *testing.T) {
	game := func(i int) string {
		return fmt.Sprintf("[Event \"g%d\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n", i)
	}
	bare := func(i int) string { return fmt.Sprintf("1. d4 d5 2. c4 c6 %d. Nc3 Nf6 1-0\n\n", 3+i%5) }
	games := func(from, to int, g func(int) string) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			b.WriteString(g(i))
		}
		return b.String()
	}
	stored := func(from, to int) (s []string) {
		for i := from; i < to; i++ {
			s = append(s, fmt.Sprintf("g%d 4", i))
		}
		return s
	}
	type tc struct {
		name       string
		in         string
		want       []string
		line, game int // the region's line, and the line of the game it cuts
	}
	for seed := range uint64(20) {
		junk := binaryGarbage(seed, 3000)
		cut := "[Event \"cut\"]\n[White \"W\"]\n\n1. e4 e5 2. Nf3 "
		cases := []tc{
			{"between games", games(0, 20, game) + junk + "\n" + games(20, 40, game), append(stored(0, 20), stored(20, 40)...), 1 + 20*7, 0},
			{"glued to a tag", games(0, 20, game) + junk + games(20, 40, game), append(stored(0, 20), stored(20, 40)...), 1 + 20*7, 0},
			{"inside a game", games(0, 20, game) + cut + junk + " Nc6 3. Bb5 1-0\n\n" + games(20, 40, game), append(stored(0, 20), stored(20, 40)...), 1 + 20*7, 1 + 20*7},
			{"inside the tags", games(0, 20, game) + "[Event \"cut\"]\n[Site \"S\"]\n[Wh" + junk + "\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5\n2. Nf3 1-0\n\n" + games(20, 40, game), append(stored(0, 20), stored(20, 40)...), 1 + 20*7, 1 + 20*7},
			{"inside the tags, glued", games(0, 20, game) + "[Event \"cut\"]\n[Wh" + junk + "[Black \"B\"]\n\n1. e4 e5 1-0\n\n" + games(20, 40, game), append(stored(0, 20), stored(20, 40)...), 1 + 20*7, 1 + 20*7},
			{"at the start", junk + "\n" + games(0, 20, game), stored(0, 20), 1, 0},
			{"at the end", games(0, 20, game) + junk, stored(0, 20), 1 + 20*7, 0},
			{"no tags", games(0, 20, bare) + junk + "\n\n" + games(20, 40, bare), nil, 1 + 20*2, 0},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%d", c.name, seed), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "h.pgn")
				if err := os.WriteFile(path, []byte(c.in), 0o644); err != nil {
					t.Fatal(err)
				}
				var got []string
				var mu sync.Mutex
				sum, err := ingest.Run(t.Context(), []string{path}, ingest.Options{Workers: 2},
					func(int) ingest.Sink { return ingest.SinkFunc(gameRecorder{&mu, &got}.add) })
				if err != nil {
					t.Fatal(err)
				}
				want := c.want
				if c.name == "no tags" {
					if len(got) != 40 {
						t.Errorf("%d games stored, want 40: %v", len(got), got)
					}
				} else {
					var names []string
					for _, g := range got {
						if strings.Contains(g, "White=W Black=B Result=1-0, 4 plies") {
							names = append(names, strings.TrimPrefix(strings.Fields(strings.SplitN(g, ": ", 2)[1])[0], "Event=")+" 4")
						} else {
							names = append(names, g)
						}
					}
					slices.Sort(names)
					slices.Sort(want)
					if fmt.Sprint(names) != fmt.Sprint(want) {
						t.Errorf("games stored:\n%v\nwant:\n%v", names, want)
					}
				}
				if sum.SkippedTotal() != 1 || sum.Skipped[ingest.SkipBinary] != 1 || len(sum.Errors) != 1 {
					t.Fatalf("skipped %v: %v; want one region of binary data", sum.Skipped, sum.Errors)
				}
				e := sum.Errors[0]
				if e.Line != c.line || e.NotGame != (c.game == 0) || !strings.Contains(e.Detail, "bytes that are not text") {
					t.Errorf("report %v (not a game: %v); want line %d, game %d", e, e.NotGame, c.line, c.game)
				}
				if c.game > 0 && !strings.Contains(e.Detail, fmt.Sprintf("with the game of line %d", c.game)) {
					t.Errorf("report %v: want the game of line %d in it", e, c.game)
				}
				if sum.Games != int64(len(got))+1 {
					t.Errorf("games read %d, want the %d stored and the region", sum.Games, len(got))
				}
			})
		}
	}
}

// TestExpandInputsBinary: a file that is binary from its first bytes (a
// Polyglot book, random data, random data before games) is no PGN, and
// said so before any work; a PGN file with binary data after its first
// games (within the 64 KiB looked at) is PGN, to be read (it was "not
// PGN: a binary file").
func TestExpandInputsBinary(t *testing.T) {
	dir := t.TempDir()
	games := strings.Repeat("[Event \"e\"]\n\n1. e4 e5 1-0\n\n", 20)
	files := map[string]string{
		"damaged.pgn":       games + binaryGarbage(1, 3000) + games,
		"garbage.pgn":       binaryGarbage(2, 3000),
		"garbage-first.pgn": binaryGarbage(3, 3000) + "\n" + games,
		"book.bin":          binaryGarbage(4, 4096),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"damaged.pgn":       "",
		"garbage.pgn":       "not PGN: a binary file",
		"garbage-first.pgn": "not PGN: a binary file",
		"book.bin":          "not PGN: a binary file, maybe a Polyglot book",
	} {
		path := filepath.Join(dir, name)
		files, _, err := ingest.ExpandInputs([]string{path})
		switch {
		case want == "" && (err != nil || len(files) != 1):
			t.Errorf("%s: %v, %v; want it read", name, files, err)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), path+": "+want)):
			t.Errorf("%s: %v; want %q", name, err, want)
		}
	}
}
