package gamecode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// cloneGame copies what a test keeps of a game the pipeline will reuse.
func cloneGame(g *pgn.Game) *pgn.Game { return g.Clone() }

// readGames returns every game of a PGN file (plain or compressed).
func readGames(tb testing.TB, path string) []*pgn.Game {
	tb.Helper()
	var mu sync.Mutex
	var games []*pgn.Game
	_, err := ingest.Run(context.Background(), []string{path}, ingest.Options{}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error {
			c := cloneGame(g)
			mu.Lock()
			games = append(games, c)
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		tb.Fatal(err)
	}
	return games
}

// sameGame compares a decoded game with the ingested original.
func sameGame(want *pgn.Game, got *pgn.Game, checkResult bool) error {
	if len(want.Tags) != len(got.Tags) {
		return fmt.Errorf("%d tags, want %d", len(got.Tags), len(want.Tags))
	}
	for i, t := range want.Tags {
		if !bytes.Equal(t.Name, got.Tags[i].Name) || !bytes.Equal(t.Value, got.Tags[i].Value) {
			return fmt.Errorf("tag %d: %q %q, want %q %q", i, got.Tags[i].Name, got.Tags[i].Value, t.Name, t.Value)
		}
	}
	if len(want.Moves) != len(got.Moves) {
		return fmt.Errorf("%d moves, want %d", len(got.Moves), len(want.Moves))
	}
	for i, m := range want.Moves {
		if got.Moves[i] != m {
			return fmt.Errorf("ply %d: %v, want %v", i+1, got.Moves[i], m)
		}
	}
	if want.FromFEN != got.FromFEN || want.Start.FEN() != got.Start.FEN() {
		return fmt.Errorf("start %v %q, want %v %q", got.FromFEN, got.Start.FEN(), want.FromFEN, want.Start.FEN())
	}
	if checkResult && want.Result != got.Result {
		return fmt.Errorf("result %v, want %v", got.Result, want.Result)
	}
	return nil
}

// reparse parses PGN text with ingest and returns its only game.
func reparse(text []byte) (*pgn.Game, error) {
	var got *pgn.Game
	var skipped error
	sink := &collectSink{game: func(g *pgn.Game) { got = cloneGame(g) }, skip: func(e *ingest.GameError) { skipped = e }}
	r := ingest.NewReplayer("printed", sink)
	pgn.Parse(text, 1, r)
	if skipped != nil {
		return nil, skipped
	}
	if got == nil {
		return nil, errors.New("no game parsed")
	}
	return got, nil
}

type collectSink struct {
	game func(*pgn.Game)
	skip func(*ingest.GameError)
}

func (s *collectSink) Game(g *pgn.Game) error   { s.game(g); return nil }
func (s *collectSink) Skip(e *ingest.GameError) { s.skip(e) }

// codings are the move codings, the default first.
var codings = []Coding{Indexed, Ranked}

// checkRoundTrip encodes g in each coding and decodes it, then prints the
// last decoded game and re-parses it.
func checkRoundTrip(g *pgn.Game, buf []byte) ([]byte, error) {
	var dg pgn.Game
	var rec []byte
	for _, c := range codings {
		var err error
		rec, err = AppendGameCoded(buf[:0], g, c)
		if err != nil {
			return buf, fmt.Errorf("%v: encode: %w", c, err)
		}
		buf = rec
		dg, err = DecodeGame(rec)
		if err != nil {
			return rec, fmt.Errorf("%v: decode: %w", c, err)
		}
		if err := sameGame(g, &dg, true); err != nil {
			return rec, fmt.Errorf("%v: decoded: %w", c, err)
		}
	}
	text := pgn.Append(nil, &dg)
	pg, err := reparse(text)
	if err != nil {
		return rec, fmt.Errorf("re-parse: %w\n%s", err, text)
	}
	if err := sameGame(g, &pgn.Game{Tags: dg.Tags, Moves: pg.Moves, Start: pg.Start, FromFEN: pg.FromFEN}, false); err != nil {
		return rec, fmt.Errorf("re-parsed: %w\n%s", err, text)
	}
	// The re-parsed tags, too.
	for i, t := range pg.Tags {
		if i >= len(g.Tags) || !bytes.Equal(t.Name, g.Tags[i].Name) || !bytes.Equal(t.Value, g.Tags[i].Value) {
			return rec, fmt.Errorf("re-parsed tag %d: %q %q\n%s", i, t.Name, t.Value, text)
		}
	}
	if len(pg.Tags) != len(g.Tags) {
		return rec, fmt.Errorf("re-parsed %d tags, want %d\n%s", len(pg.Tags), len(g.Tags), text)
	}
	return rec, nil
}

// TestRoundTripMedium checks every game of testdata's champions500 and
// lichess2k (with -tags oracle, of shared/data/medium): decoded equal to
// the ingested game, and printed PGN re-parsed to the same moves and tags.
func TestRoundTripMedium(t *testing.T) {
	files, minGames := mediumInputs(t)
	games, bad, err := roundTrip(t, files)
	if err != nil {
		t.Fatal(err)
	}
	if games < minGames {
		t.Errorf("only %d games", games)
	}
	t.Logf("%d games round-tripped, %d failures", games, bad)
}

// TestRoundTripSmall covers the tricky inputs of testdata (with -tags
// oracle, the small and tricky ones of shared/data): FEN starts, odd tags.
func TestRoundTripSmall(t *testing.T) {
	var files []string
	for _, pat := range smallInputs(t) {
		m, _ := filepath.Glob(pat)
		for _, f := range m {
			if filepath.Ext(f) != ".txt" && filepath.Ext(f) != ".md" {
				files = append(files, f)
			}
		}
	}
	if testing.Short() && len(files) > 3 {
		files = files[:3]
	}
	n := 0
	for _, f := range files {
		games, _, err := roundTrip(t, []string{f})
		if err != nil {
			t.Logf("%s: %v", f, err)
		}
		n += games
	}
	t.Logf("%d games from %d files", n, len(files))
}

// roundTrip runs checkRoundTrip on every game of the files, reporting the
// first ten failures, and returns the games checked and failed.
func roundTrip(t *testing.T, files []string) (games, bad int, err error) {
	t.Helper()
	var mu sync.Mutex
	_, err = ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		var buf []byte
		return ingest.SinkFunc(func(g *pgn.Game) error {
			var err error
			buf, err = checkRoundTrip(g, buf)
			mu.Lock()
			defer mu.Unlock()
			games++
			if err != nil {
				bad++
				if bad <= 10 {
					t.Errorf("%s:%d: %v", g.File, g.Line, err)
				}
			}
			return nil
		})
	})
	return games, bad, err
}

func TestGarbage(t *testing.T) {
	g := readGames(t, "../testdata/champions500.pgn")
	for _, c := range codings {
		rec, err := AppendGameCoded(nil, g[0], c)
		if err != nil {
			t.Fatal(err)
		}
		// A truncated record decodes to an error or to some legal game (the
		// store keeps record lengths; the format has no checksum): never a panic.
		for i := range rec {
			if _, err := DecodeGame(rec[:i]); err != nil && !IsCorrupt(err) {
				t.Errorf("%v, truncated to %d bytes: error %v does not wrap the corrupt error", c, i, err)
			}
		}
		// The moves of one coding read as the other's: an error or some
		// legal game.
		other := append([]byte(nil), rec...)
		other[0] ^= VersionIndexed ^ VersionRanked
		if _, err := DecodeGame(other); err != nil && !IsCorrupt(err) {
			t.Errorf("%v read as the other coding: error %v does not wrap the corrupt error", c, err)
		}
	}
	for _, b := range [][]byte{nil, {0}, {1, 5}, {4, 5}, {VersionRanked}, {VersionIndexed}, {VersionRanked, 1, 2, 3}, {VersionIndexed, 1, 2, 3}, bytes.Repeat([]byte{0xFF}, 100), append([]byte{VersionIndexed}, bytes.Repeat([]byte{0xFF}, 100)...)} {
		if _, err := DecodeGame(b); err != nil && !IsCorrupt(err) {
			t.Errorf("%x: error %v does not wrap the corrupt error", b, err)
		}
	}
	if _, err := DecodeGame([]byte{4, 0}); err == nil || !strings.Contains(err.Error(), "version 4") {
		t.Errorf("version 4: %v, want an error naming the version", err)
	}
}

// TestAllocs checks that coding allocates per game, never per ply:
// AppendGame nothing when dst has room, DecodeGame the game's tags, their
// text and its moves.
func TestAllocs(t *testing.T) {
	games := readGames(t, "../testdata/champions500.pgn")
	buf := make([]byte, 0, 1<<16)
	for _, c := range codings {
		var recs [][]byte
		for _, g := range games[:50] {
			rec, err := AppendGameCoded(nil, g, c)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		if n := testing.AllocsPerRun(10, func() {
			for _, g := range games[:50] {
				buf, _ = AppendGameCoded(buf[:0], g, c)
			}
		}); n != 0 {
			t.Errorf("%v: AppendGame: %v allocations for 50 games", c, n)
		}
		if n := testing.AllocsPerRun(10, func() {
			for _, r := range recs {
				if _, err := DecodeGame(r); err != nil {
					panic(err)
				}
			}
		}); n > 3*50 {
			t.Errorf("%v: DecodeGame: %v allocations for 50 games, want at most 3 a game", c, n)
		}
	}
}

// TestDecodeGameUntil: decoding that stops at ply k gives the whole
// game's tags and its first k+1 moves, each with the position before it;
// DecodeGameInfo gives the tags and the number of plies.
func TestDecodeGameUntil(t *testing.T) {
	games := readGames(t, untilInput(t))
	for i, g := range games[:min(len(games), 300)] {
		rec, err := AppendGameCoded(nil, g, codings[i%len(codings)])
		if err != nil {
			continue
		}
		k := i % (len(g.Moves) + 1)
		p := g.Start
		got, err := DecodeGameUntil(rec, func(ply int, pos *board.Position, m board.Move) bool {
			if *pos != p || m != g.Moves[ply] {
				t.Fatalf("game %d, ply %d: position or move differs", i, ply)
			}
			p.Play(m)
			return ply == k
		})
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		want := g.Clone()
		want.Moves = want.Moves[:min(k+1, len(want.Moves))]
		if err := sameGame(want, &got, true); err != nil {
			t.Fatalf("game %d stopped at ply %d: %v", i, k, err)
		}
		info, plies, err := DecodeGameInfo(rec)
		want.Moves = nil
		if err != nil || plies != len(g.Moves) {
			t.Fatalf("game %d: DecodeGameInfo: %d plies, %v; want %d", i, plies, err, len(g.Moves))
		}
		if err := sameGame(want, &info, true); err != nil {
			t.Fatalf("game %d: DecodeGameInfo: %v", i, err)
		}
	}
}

// TestLimits: whatever AppendGame stores, DecodeGame decodes. Games at the
// limits (tag count, text size) round-trip; one past them is refused by
// AppendGame with a reason, never stored undecodable.
func TestLimits(t *testing.T) {
	start := board.StartPosition()
	e4, err := start.ParseSAN([]byte("e4"))
	if err != nil {
		t.Fatal(err)
	}
	game := func(tags []pgn.Tag) *pgn.Game {
		return &pgn.Game{Tags: tags, Start: start, Moves: []board.Move{e4}, Result: pgn.Draw}
	}
	manyTags := func(n int) []pgn.Tag {
		tags := make([]pgn.Tag, n)
		for i := range tags {
			tags[i] = pgn.Tag{Name: []byte(fmt.Sprintf("T%d", i)), Value: []byte("v")}
		}
		return tags
	}
	bigValue := func(n int) []pgn.Tag {
		return []pgn.Tag{{Name: []byte("Annotator"), Value: bytes.Repeat([]byte("abc "), n/4)}}
	}
	for _, tc := range []struct {
		name string
		g    *pgn.Game
		ok   bool
	}{
		{"4096 tags", game(manyTags(maxTags)), true},
		{"4097 tags", game(manyTags(maxTags + 1)), false},
		{"a value just under the text limit", game(bigValue(maxTextSize - maxFENText - 64)), true},
		{"a 1 MiB value", game(bigValue(1 << 20)), false},
		{"a 4 MiB value", game(bigValue(4 << 20)), false},
	} {
		rec, err := AppendGame(nil, tc.g)
		if !tc.ok {
			if err == nil || !strings.Contains(err.Error(), "at most") {
				t.Errorf("%s: AppendGame = %d bytes, %v; want it refused with the limit named", tc.name, len(rec), err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: AppendGame: %v", tc.name, err)
			continue
		}
		if _, err := checkRoundTrip(tc.g, nil); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
