package export_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/stats"
)

// TestPositionsDump: the NDJSON dump of the world champions' store lists
// every position book.Positions lists, once, with its key, a FEN whose
// position is the key's, and the entry's totals and moves; the CSV dump
// has the same lines; and the ply and game filters keep exactly the lines
// of the full dump that pass them.
func TestPositionsDump(t *testing.T) {
	st, _, _ := championsGame.Open(t)
	want := map[string]stats.MoveStats{}
	err := book.Positions(context.Background(), st, 0, func(pos []byte, e *stats.Entry) error {
		want[keys.Text(pos)] = e.Total()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dump := func(o export.PositionsOptions) string {
		var b bytes.Buffer
		if err := export.Positions(context.Background(), st, &b, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	full := dump(export.PositionsOptions{MaxPly: -1, Moves: true})
	var all []export.Position
	sc := bufio.NewScanner(strings.NewReader(full))
	sc.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for sc.Scan() {
		var p export.Position
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		k, err := base64.RawURLEncoding.DecodeString(p.Key)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := keys.Decode(k)
		if err != nil {
			t.Fatal(err)
		}
		fen, err := board.ParseFEN(p.FEN)
		if err != nil || !keys.Equal(&pos, &fen) {
			t.Fatalf("%s: FEN %s is not the key's position %s (%v)", p.Key, p.FEN, pos.FEN(), err)
		}
		w, ok := want[p.Key]
		if !ok || seen[p.Key] || p.Games != w.Games() || p.White != w.WhiteWins || p.Draws != w.Draws || p.Black != w.BlackWins {
			t.Fatalf("%s: listed %+v (twice %v), book.Positions has %+v (%v)", p.Key, p, seen[p.Key], w, ok)
		}
		var games uint64
		for _, m := range p.Moves {
			games += m.White + m.Draws + m.Black + m.Unknown
		}
		if games != p.Games {
			t.Fatalf("%s: moves add up to %d games, the position has %d", p.Key, games, p.Games)
		}
		seen[p.Key] = true
		all = append(all, p)
	}
	if len(all) != len(want) {
		t.Fatalf("%d positions dumped, book.Positions lists %d", len(all), len(want))
	}
	line := func(p export.Position) string {
		ply := ""
		if p.Ply != nil {
			ply = fmt.Sprint(*p.Ply)
		}
		return fmt.Sprintf("%s,%d,%d,%d,%d,%d,%s", p.FEN, p.Games, p.White, p.Draws, p.Black, p.Unknown, ply)
	}
	for _, o := range []export.PositionsOptions{
		{MaxPly: -1, Format: export.CSV},
		{MaxPly: 6, Format: export.CSV},
		{MinPly: 10, MaxPly: 12, Format: export.CSV},
		{MinGames: 3, MaxPly: -1, Format: export.CSV},
	} {
		var lines []string
		for _, p := range all {
			if p.Games >= o.MinGames && (o.MinPly == 0 && o.MaxPly < 0 || p.Ply != nil && *p.Ply >= o.MinPly && (o.MaxPly < 0 || *p.Ply <= o.MaxPly)) {
				lines = append(lines, line(p))
			}
		}
		got := strings.Split(strings.TrimSuffix(dump(o), "\n"), "\n")
		if got[0] != export.CSVHeader {
			t.Fatalf("%+v: header %q", o, got[0])
		}
		gotSet := map[string]bool{}
		for _, l := range got[1:] {
			gotSet[l] = true
		}
		if len(got)-1 != len(lines) {
			t.Errorf("%+v: %d lines, the full dump has %d that pass", o, len(got)-1, len(lines))
		}
		for _, l := range lines {
			if !gotSet[l] {
				t.Errorf("%+v: line %q missing", o, l)
				break
			}
		}
	}
	if err := export.Positions(context.Background(), st, &bytes.Buffer{}, export.PositionsOptions{MinPly: 5, MaxPly: 4}); err == nil {
		t.Error("-min-ply above -max-ply: no error")
	}
}
