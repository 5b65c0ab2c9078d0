package tally_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/tally"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
)

// gameList is an ingest.Sink that keeps the games.
type gameList struct{ games []pgn.Game }

func (l *gameList) Game(g *pgn.Game) error { l.games = append(l.games, *g.Clone()); return nil }
func (l *gameList) Skip(*ingest.GameError) {}

// flushed is what FlushSplit gave: emitted positions and singles, in order.
type flushed struct {
	emits   []string
	singles [][2]uint32
}

func flushAll(t *testing.T, tab *tally.Table) flushed {
	t.Helper()
	var f flushed
	err := tab.FlushSplit(func(key []byte, hash uint32, enc, hist []byte) error {
		f.emits = append(f.emits, fmt.Sprintf("%x %08x %x %x", key, hash, enc, hist))
		return nil
	}, func(hash, local uint32) error {
		f.singles = append(f.singles, [2]uint32{hash, local})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestAddPlyMatchesAddOccurrence adds the games of testdata/champions500.pgn
// to one Table with their keys (AddOccurrence) and to another by hash only
// (StartGame, AddPly), some games whole, some cut short, some without a
// game reference, and demands the same flush: the positions FlushSplit
// keys by replaying are those it would have been given. The tables are
// small, so that each flushes many times, and the hash is cut to 10 bits,
// so that groups of several positions (collisions) are common.
func TestAddPlyMatchesAddOccurrence(t *testing.T) {
	var l gameList
	pgnFile := filepath.Join("..", "..", "testdata", "champions500.pgn")
	if _, err := ingest.Run(context.Background(), []string{pgnFile}, ingest.Options{Workers: 1}, func(int) ingest.Sink { return &l }); err != nil {
		t.Fatal(err)
	}
	if len(l.games) < 400 {
		t.Fatalf("only %d games", len(l.games))
	}
	for _, bits := range []uint{32, 10} {
		keyed, hashed := tally.NewTable(1024), tally.NewTable(1024)
		keyed.KeepHistory()
		hashed.KeepHistory()
		var key []byte
		flushes, emits, singles := 0, 0, 0
		flush := func() {
			a, b := flushAll(t, keyed), flushAll(t, hashed)
			if !slices.Equal(a.emits, b.emits) || !slices.Equal(a.singles, b.singles) {
				t.Fatalf("hash bits %d, flush %d: keyed table gave %d positions and %d singles, hashed %d and %d; first differences:\n%v\n%v",
					bits, flushes, len(a.emits), len(a.singles), len(b.emits), len(b.singles), firstDiff(a.emits, b.emits), a.singles[:min(len(a.singles), 3)])
			}
			flushes++
			emits += len(a.emits)
			singles += len(a.singles)
		}
		for i := range l.games {
			g := &l.games[i]
			moves := g.Moves
			if i%3 == 1 {
				moves = moves[:len(moves)/2]
			}
			if !keyed.HasRoom(len(moves)) || !hashed.HasRoom(len(moves)) {
				flush()
			}
			o := stats.Occurrence{Result: g.Result, Local: uint32(i), Date: stats.NewDate(1900+i%100, 1+i%12, 1)}
			if i%5 != 0 {
				o.Game = stats.GameRef{ID: uint64(i + 1)}
			}
			hashed.StartGame(&g.Start, moves)
			var hs keys.Hasher
			pos := g.Start
			hs.Reset(&pos)
			for ply, m := range moves {
				o.Ply = ply
				o.Hash = uint32(hs.Hash(&pos)>>32) >> (32 - bits)
				key = keys.Append(key[:0], &pos)
				keyed.AddOccurrence(key, m, &o)
				hashed.AddPly(ply, &o)
				hs.Play(&pos, m)
				pos.Play(m)
			}
		}
		flush()
		if flushes < 10 || emits < 1000 || singles < 1000 {
			t.Errorf("hash bits %d: %d flushes, %d positions, %d singles: too few to tell", bits, flushes, emits, singles)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %s\nagainst %s", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}
