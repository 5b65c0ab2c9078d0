package build

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/store"
)

// tagText is a tag pair as text, comparable with ==.
type tagText struct{ Name, Value string }

// tagTexts copies tags as text.
func tagTexts(tags []pgn.Tag) []tagText {
	var out []tagText
	for _, t := range tags {
		out = append(out, tagText{Name: string(t.Name), Value: string(t.Value)})
	}
	return out
}

// inputGame is what a test remembers of an input game.
type inputGame struct {
	tags  []tagText
	start string
	moves []board.Move
	res   pgn.Result
}

// gameCollector records every game of the input under its content id
// (the first copy of each in input order, when one worker runs it).
type gameCollector struct {
	mu    *sync.Mutex
	games map[store.GameID]*inputGame
	h     *contentHasher
}

func (s *gameCollector) add(g *pgn.Game) error {
	id := s.h.idOf(s.h.content(g), 0)
	ig := &inputGame{tags: tagTexts(g.Tags), start: g.Start.FEN(), moves: slices.Clone(g.Moves), res: g.Result}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.games[id]; !dup {
		s.games[id] = ig
	}
	return nil
}

// codings are the game codings, the default first.
var codings = []gamecode.Coding{gamecode.Indexed, gamecode.Ranked}

// TestStoredGamesRoundTrip builds the medium corpus into a store, each
// input in another game coding, then reads every stored game back: its
// tags and moves equal the input game's with the same id, and its PGN,
// parsed again, gives the same tags and moves.
func TestStoredGamesRoundTrip(t *testing.T) {
	inputs := storedInputs(t)
	var mu sync.Mutex
	want := map[store.GameID]*inputGame{}
	// One worker: the first copy of each game in input order, the one
	// the builder stores.
	if _, err := ingest.Run(context.Background(), inputs, ingest.Options{Workers: 1}, func(int) ingest.Sink {
		return ingest.SinkFunc((&gameCollector{mu: &mu, games: want, h: newContentHasher()}).add)
	}); err != nil {
		t.Fatal(err)
	}

	st, err := store.Open(filepath.Join(t.TempDir(), "db"), store.Options{Meta: &store.Meta{CountMode: store.CountGame}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// One input per build, the codings taking turns: one store holds
	// records of both.
	var stored int64
	for i, in := range inputs {
		b := NewBuilder(st, Options{MaxPly: 0, GameCoding: codings[i%2]}, 2)
		if _, err := ingest.Run(context.Background(), []string{in}, ingest.Options{Workers: 2}, b.Sink); err != nil {
			t.Fatal(err)
		}
		if err := b.Finish(); err != nil {
			t.Fatal(err)
		}
		if s := b.Stats(); s.Unstorable != 0 {
			t.Fatalf("%s: %d games not storable", in, s.Unstorable)
		}
		stored += b.Stats().Games
	}
	if stored != int64(len(want)) {
		t.Fatalf("stored %d games, the input has %d distinct", stored, len(want))
	}

	n := 0
	versions := map[byte]int{}
	err = st.Games(func(id store.GameID, rec []byte) (bool, error) {
		n++
		versions[rec[0]]++
		w, ok := want[id]
		if !ok {
			t.Fatalf("stored game %s is not an input game", id)
		}
		g, err := gamecode.DecodeGame(rec)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		check := func(how string, tags []tagText, start string, moves []board.Move, res pgn.Result) {
			if !slices.Equal(tags, w.tags) || start != w.start || !slices.Equal(moves, w.moves) || res != w.res {
				t.Fatalf("game %s %s:\n tags %v\nwant %v\n start %s want %s\n %d moves, want %d; result %v want %v",
					id, how, tags, w.tags, start, w.start, len(moves), len(w.moves), res, w.res)
			}
		}
		check("decoded", tagTexts(g.Tags), g.Start.FEN(), g.Moves, g.Result)
		// Print, parse again.
		var got *inputGame
		sink := &oneGameSink{fn: func(pg *pgn.Game) {
			got = &inputGame{tags: tagTexts(pg.Tags), start: pg.Start.FEN(), moves: slices.Clone(pg.Moves), res: pg.Result}
		}}
		rp := ingest.NewReplayer(id.String(), sink)
		if pgn.Parse(pgn.Append(nil, &g), 1, rp); got == nil {
			t.Fatalf("game %s: printed PGN does not parse:\n%s", id, pgn.Append(nil, &g))
		}
		check("printed and parsed", got.tags, got.start, got.moves, got.res)
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Fatalf("%d games stored, want %d", n, len(want))
	}
	if len(inputs) > 1 && (versions[gamecode.VersionIndexed] == 0 || versions[gamecode.VersionRanked] == 0) {
		t.Errorf("records by version %v, want both codings", versions)
	}
	t.Logf("%d stored games round-trip (input: %v; records by version %v)", n, inputs, versions)
}

type oneGameSink struct{ fn func(*pgn.Game) }

func (s *oneGameSink) Game(g *pgn.Game) error   { s.fn(g); return nil }
func (s *oneGameSink) Skip(e *ingest.GameError) { panic(e.Error()) }

// TestIDBloom checks the committed-ids Bloom filter: no id added is ever
// reported missing (across several blocks), and about 1% of other ids are
// reported present.
func TestIDBloom(t *testing.T) {
	var f idBloom
	if f.mayContain(12345) {
		t.Fatal("empty filter reports an id")
	}
	const n = 2*filterBlockIDs + 1000
	id := func(i int) uint64 { return uint64(i+1) * 0x9e3779b97f4a7c15 }
	for i := range n {
		f.add(id(i))
	}
	if len(f.blocks) != 3 {
		t.Errorf("%d ids in %d blocks, want 3", n, len(f.blocks))
	}
	for i := range n {
		if !f.mayContain(id(i)) {
			t.Fatalf("id %d added but reported missing", i)
		}
	}
	fp := 0
	const tries = 200000
	for i := range tries {
		if f.mayContain(id(n + i)) {
			fp++
		}
	}
	// Each full block answers a foreign id with p ~ 0.8%; three blocks.
	if rate := float64(fp) / tries; rate > 0.04 || fp == 0 {
		t.Errorf("false positive rate %.4f, want about 0.01-0.03", rate)
	}
}
