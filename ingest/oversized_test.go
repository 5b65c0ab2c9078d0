package ingest_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/klauspost/compress/zstd"
)

// gameRecorder records every game it gets in games: its line, its tags
// and its plies.
type gameRecorder struct {
	mu    *sync.Mutex
	games *[]string
}

func (s gameRecorder) add(g *pgn.Game) error {
	var tags []string
	for _, t := range g.Tags {
		tags = append(tags, fmt.Sprintf("%s=%.20s", t.Name, t.Value))
	}
	s.mu.Lock()
	*s.games = append(*s.games, fmt.Sprintf("line %d: %s, %d plies", g.Line, strings.Join(tags, " "), len(g.Moves)))
	s.mu.Unlock()
	return nil
}

// TestRunOversizedLines: a game with a line of 17 MiB (more than a game
// may have: a tag value, its first or another, a comment on one line or
// over many with tag lines inside it, moves; or an input that ends inside
// the huge tag) between two ordinary games, plain and zstd-compressed. The
// huge game alone is skipped as "game too long", charged to its own first
// line (8); the games before and after it are stored whole, every tag and
// move of theirs.
func TestRunOversizedLines(t *testing.T) {
	huge := pgn.DefaultMaxGameSize + 1<<20
	game := func(event string) string {
		return "[Event \"" + event + "\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
	}
	rest := "[White \"H\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n"
	cases := []struct{ name, head, fill, tail string }{
		{"first tag", "[Event \"", "x", "\"]\n" + rest},
		{"second tag", "[Event \"huge\"]\n[Annotator \"", "x", "\"]\n" + rest},
		{"comment", "[Event \"huge\"]\n\n1. d4 {", "comment ", "} d5 0-1\n\n"},
		{"comment of lines with tags", "[Event \"huge\"]\n\n1. d4 {\n", "[Event \"in a comment\"]\nyyy\n", "} d5 0-1\n\n"},
		{"moves", "[Event \"huge\"]\n\n", "Nf3 Nf6 Ng1 Ng8 ", "1/2-1/2\n\n"},
		{"input ends inside the tag", "[Event \"", "x", ""},
	}
	before := "line 1: Event=before White=W Black=B Result=1-0, 4 plies"
	for _, tc := range cases {
		n := huge / len(tc.fill)
		afterLine := 8 + strings.Count(tc.head+tc.tail, "\n") + n*strings.Count(tc.fill, "\n")
		want := []string{before}
		if tc.tail != "" {
			want = append(want, fmt.Sprintf("line %d: Event=after White=W Black=B Result=1-0, 4 plies", afterLine))
		}
		for _, compressed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/zstd=%v", tc.name, compressed), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "huge.pgn")
				writeHuge(t, path, compressed, func(w io.Writer) {
					io.WriteString(w, game("before")+tc.head)
					fill := []byte(strings.Repeat(tc.fill, 1<<16/len(tc.fill)))
					for left := n; left > 0; {
						k := min(left, len(fill)/len(tc.fill))
						w.Write(fill[:k*len(tc.fill)])
						left -= k
					}
					io.WriteString(w, tc.tail)
					if tc.tail != "" {
						io.WriteString(w, game("after"))
					}
				})
				var games []string
				var mu sync.Mutex
				sum, err := ingest.Run(t.Context(), []string{path}, ingest.Options{Workers: 2},
					func(int) ingest.Sink { return ingest.SinkFunc(gameRecorder{&mu, &games}.add) })
				if err != nil {
					t.Fatal(err)
				}
				slices.SortFunc(games, func(a, b string) int { return lineOf(a) - lineOf(b) })
				if fmt.Sprint(games) != fmt.Sprint(want) {
					t.Errorf("games stored:\n%s\nwant:\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
				}
				size := len(tc.head) + n*len(tc.fill) + len(tc.tail)
				if sum.SkippedTotal() != 1 || len(sum.Errors) != 1 || sum.Errors[0].Line != 8 || sum.Errors[0].Reason != ingest.SkipTooLong ||
					!strings.HasPrefix(sum.Errors[0].Detail, fmt.Sprintf("%d bytes", size)) {
					t.Errorf("skipped %v: %v; want one game too long, of %d bytes at line 8", sum.Skipped, sum.Errors, size)
				}
			})
		}
	}
}

// lineOf returns the line number a gameRecorder record begins with.
func lineOf(rec string) int {
	var n int
	fmt.Sscanf(rec, "line %d:", &n)
	return n
}

// writeHuge writes a file through w, zstd-compressed or not.
func writeHuge(t *testing.T, path string, compressed bool, write func(io.Writer)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	var w io.Writer = bw
	var zw *zstd.Encoder
	if compressed {
		if zw, err = zstd.NewWriter(bw, zstd.WithEncoderLevel(zstd.SpeedFastest)); err != nil {
			t.Fatal(err)
		}
		w = zw
	}
	write(w)
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRunBigGames: games of 3 MiB (under the limit), more than the grown
// buffers the reader may have in flight, between ordinary ones and one
// too long: every game arrives, with its line; the reader never waits for
// a buffer that does not come back (the run would stop at its deadline).
func TestRunBigGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.pgn")
	var want []string
	line := 1
	writeHuge(t, path, false, func(w io.Writer) {
		for i := range 12 {
			small := fmt.Sprintf("[Event \"small %d\"]\n\n1. d4 d5 0-1\n\n", i)
			io.WriteString(w, small)
			want = append(want, fmt.Sprintf("line %d: Event=small %d, 2 plies", line, i))
			line += 4
			size := 3 << 20
			if i == 5 {
				size = pgn.DefaultMaxGameSize // with its tags, too long
			} else {
				want = append(want, fmt.Sprintf("line %d: Event=big %d, 2 plies", line, i))
			}
			fmt.Fprintf(w, "[Event \"big %d\"]\n\n1. e4 {\n", i)
			comment := strings.Repeat(strings.Repeat("c", 99)+"\n", size/100)
			io.WriteString(w, comment)
			io.WriteString(w, "} e5 1-0\n\n")
			line += 5 + strings.Count(comment, "\n")
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var games []string
	var mu sync.Mutex
	sum, err := ingest.Run(ctx, []string{path}, ingest.Options{Workers: 2},
		func(int) ingest.Sink { return ingest.SinkFunc(gameRecorder{&mu, &games}.add) })
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(games, func(a, b string) int { return lineOf(a) - lineOf(b) })
	if fmt.Sprint(games) != fmt.Sprint(want) {
		t.Errorf("games:\n%s\nwant:\n%s", strings.Join(games, "\n"), strings.Join(want, "\n"))
	}
	if sum.SkippedTotal() != 1 || sum.Errors[0].Reason != ingest.SkipTooLong {
		t.Errorf("skipped %v: %v; want the one game too long", sum.Skipped, sum.Errors)
	}
}
