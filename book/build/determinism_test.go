package build_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/store"
)

// dupInput writes a PGN file of rounds copies of champions500.pgn, each
// round's games made distinct by their Round tag, in which about two games
// in five come again, one to three more times: right after, a few games
// later, or hundreds of games later (in another chunk of input, which
// another worker replays). Every copy of a game has the same identity
// (players, date, round, result, moves) but its own Event, WhiteElo and
// TimeControl tags: Event "copy k" for the k-th copy in input order, so
// that which copy a store keeps shows in its records and statistics. It
// returns the file, the Event of the game starting at each line, and the
// number of distinct games.
func dupInput(t *testing.T, rounds int, seed uint64) (path string, events map[int]string, distinct int) {
	t.Helper()
	data, err := os.ReadFile(champions)
	if err != nil {
		t.Fatal(err)
	}
	// Each game without its Event line.
	var bodies []string
	for _, g := range strings.Split(string(data), "\n[Event ")[1:] {
		_, body, ok := strings.Cut(g, "\n")
		if !ok {
			t.Fatal("a game with nothing but its Event tag")
		}
		bodies = append(bodies, strings.TrimRight(body, "\n")+"\n\n")
	}
	if len(bodies) != 499 { // the first game has no newline before it
		t.Fatalf("%d games split, want 499", len(bodies))
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var out bytes.Buffer
	line := 1
	events = map[int]string{}
	copies := map[string]int{}
	write := func(round int, body string) {
		key := fmt.Sprint(round, body)
		k := copies[key]
		copies[key] = k + 1
		event := fmt.Sprintf("copy %d", k)
		events[line] = event
		text := fmt.Sprintf("[Event %q]\n[WhiteElo \"%d\"]\n[TimeControl \"%d+0\"]\n%s", event, 1500+rng.IntN(1200), 60*(1+rng.IntN(40)),
			strings.Replace(body, `[Round "`, fmt.Sprintf(`[Round "r%d.`, round), 1))
		out.WriteString(text)
		line += strings.Count(text, "\n")
	}
	type later struct {
		due   int // the number of games written before it
		round int
		body  string
	}
	var pending []later
	n := 0
	flush := func(all bool) {
		for i := 0; i < len(pending); {
			if all || pending[i].due <= n {
				write(pending[i].round, pending[i].body)
				n++
				pending = append(pending[:i], pending[i+1:]...)
				continue
			}
			i++
		}
	}
	for r := range rounds {
		for _, body := range bodies {
			flush(false)
			write(r, body)
			n++
			if rng.IntN(5) < 2 {
				for range 1 + rng.IntN(3) {
					var delay int
					switch rng.IntN(3) {
					case 0:
						delay = 0
					case 1:
						delay = 1 + rng.IntN(5)
					default:
						delay = 150 + rng.IntN(600)
					}
					pending = append(pending, later{due: n + delay, round: r, body: body})
				}
			}
		}
	}
	flush(true)
	path = filepath.Join(t.TempDir(), "dups.pgn")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, events, len(copies)
}

// jitter is a test hook that has the workers sleep now and then, for up
// to half a millisecond, or yield: their chunks then finish in every
// order.
func jitter(p build.HookPoint, rng *rand.Rand) {
	if rng == nil {
		return
	}
	switch x := rng.IntN(100); {
	case x == 0:
		time.Sleep(time.Duration(rng.IntN(500)) * time.Microsecond)
	case x < 10:
		runtime.Gosched()
	}
}

// checkFirstCopies checks which copies of each game the store at dir
// keeps: every copy with -keep-duplicates, else the first in input order
// (Event "copy 0"); and that the game order index pairs each game with the
// stamp of its own line (events: the Event of the game at each line).
func checkFirstCopies(t *testing.T, dir string, opts build.Options, events map[int]string) {
	t.Helper()
	st, err := store.Open(dir, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	event := func(id store.GameID) string {
		rec, err := st.Game(id)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		return string(g.Tag("Event"))
	}
	bad := 0
	if !opts.KeepDuplicates {
		err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
			if e := event(id); e != "copy 0" && bad < 5 {
				t.Errorf("game %s: Event %q stored, want the first copy's", id, e)
				bad++
			}
			return true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if opts.CountMode != store.CountOccurrence {
		return
	}
	n := 0
	err = st.GameOrder(func(stamp uint64, id store.GameID) (bool, error) {
		n++
		line := int(stamp >> 12 & (1<<32 - 1))
		if e, want := event(id), events[line]; e != want && bad < 10 {
			t.Errorf("game %s has the stamp of line %d (%q) but is %q", id, line, want, e)
			bad++
		}
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if uint64(n) != st.Meta().Games {
		t.Errorf("game order index: %d games, the store %d", n, st.Meta().Games)
	}
}

// TestBuildDeterministic builds an input full of duplicates, near and far
// (dupInput), in every counting mode, with 1 to 8 workers (1, 2 and 4 by
// default, 3 and 8 too with -tags oracle), a test hook
// that shuffles their scheduling, and a memory budget small enough for
// dozens of flushes and commits: every build must end with the same store
// (every position's statistics with first-seen stamps and game
// references, every game record, the game order index), and keep the
// first copy of each game in input order, or every copy with its own
// stamp.
func TestBuildDeterministic(t *testing.T) {
	in, events, distinct := dupInput(t, 6, 1)
	total := len(events)
	t.Logf("%d games, %d distinct", total, distinct)
	configs := []struct {
		workers int
		seed    uint64 // the hook's seed; 0: no hook
		procs   int    // GOMAXPROCS; 0: as it is
	}{{2, 1, 0}, {4, 0, 1}, {3, 2, 0}, {8, 3, 0}}
	if testing.Short() || !withOracles {
		configs = configs[:2] // 3 and 8 workers with -tags oracle (the default tests' time)
	}
	for _, opts := range []build.Options{
		{CountMode: store.CountGame},
		{CountMode: store.CountOccurrence, Inputs: []string{in}},
		{CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}},
	} {
		opts.MemBudget, opts.CommitRuns = 4<<20, 2
		t.Run(fmt.Sprintf("%s keep=%v", opts.CountMode, opts.KeepDuplicates), func(t *testing.T) {
			ref := filepath.Join(t.TempDir(), "ref")
			s := storetest.BuildWorkers(t, ref, opts, 1, in)
			want := int64(distinct)
			if opts.KeepDuplicates {
				want = int64(total)
			}
			if s.Games != want || s.Games+s.Duplicates != int64(total) || s.Commits < 5 {
				t.Fatalf("one worker: %d games stored, %d duplicates, %d commits; want %d stored of %d, several commits", s.Games, s.Duplicates, s.Commits, want, total)
			}
			checkFirstCopies(t, ref, opts, events)
			wantDigest, _, _ := storetest.Digest(t, ref)
			for _, c := range configs {
				dir := filepath.Join(t.TempDir(), fmt.Sprint("w", c.workers))
				o := opts
				if c.seed != 0 {
					o = build.WithHook(opts, c.seed, jitter)
				}
				prev := 0
				if c.procs != 0 {
					prev = runtime.GOMAXPROCS(c.procs)
				}
				got := storetest.BuildWorkers(t, dir, o, c.workers, in)
				if prev != 0 {
					runtime.GOMAXPROCS(prev)
				}
				if got.Games != s.Games || got.Duplicates != s.Duplicates {
					t.Errorf("%+v: %d games, %d duplicates; one worker %d, %d", c, got.Games, got.Duplicates, s.Games, s.Duplicates)
				}
				checkFirstCopies(t, dir, opts, events)
				if d, _, _ := storetest.Digest(t, dir); d != wantDigest {
					t.Errorf("%+v: the store differs from one worker's", c)
				}
			}
		})
	}
}
