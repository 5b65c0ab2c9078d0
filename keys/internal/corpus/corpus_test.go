package corpus

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func collect(t *testing.T, path string, replay func(string, int, func(Game)) error) map[int]Game {
	t.Helper()
	var mu sync.Mutex
	out := map[int]Game{}
	if err := replay(path, 0, func(g Game) {
		mu.Lock()
		out[g.Index] = g
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFastMatchesNotnil checks the fast source against notnil/chess, game
// by game and position by position (FEN including clocks).
func TestFastMatchesNotnil(t *testing.T) {
	dir := FindData("../../../../shared/data")
	if dir == "" {
		t.Skip("shared/data not found")
	}
	// notnil is slow (~2k-40k plies/s): one small file by default, more
	// with BOOK_LONG=1 (about two minutes).
	files := []string{"small/allancao_lichess_DannyTheDonkey_2019-01-29.pgn"}
	if os.Getenv("BOOK_LONG") == "1" {
		files = append(files, "small/allancao_games.pgn", "small/notnil_Carlsen.pgn", "small/notnil_twic0920.pgn", "small/cfd_BDG2.PGN")
	}
	for _, f := range files {
		path := filepath.Join(dir, f)
		fast := collect(t, path, Replay)
		slow := collect(t, path, ReplayNotnil)
		if len(fast) != len(slow) {
			t.Errorf("%s: %d games fast, %d notnil", f, len(fast), len(slow))
		}
		plies, fastOnly, slowOnly := 0, 0, 0
		for i, sg := range slow {
			fg := fast[i]
			switch {
			case sg.Err != nil && fg.Err != nil:
				continue
			case sg.Err != nil:
				slowOnly++
				t.Logf("%s game %d: notnil fails (%v), fast replays %d plies", f, i, sg.Err, len(fg.Positions)-1)
				continue
			case fg.Err != nil:
				fastOnly++
				t.Errorf("%s game %d: fast fails: %v", f, i, fg.Err)
				continue
			}
			if len(fg.Positions) != len(sg.Positions) {
				t.Errorf("%s game %d: %d positions fast, %d notnil", f, i, len(fg.Positions), len(sg.Positions))
				continue
			}
			for k := range sg.Positions {
				if a, b := fg.Positions[k].FEN(), sg.Positions[k].FEN(); a != b {
					t.Errorf("%s game %d ply %d: fast %s, notnil %s", f, i, k, a, b)
					break
				}
			}
			plies += len(sg.Positions)
		}
		t.Logf("%s: %d games, %d positions identical; notnil-only failures %d, fast-only failures %d", f, len(slow), plies, slowOnly, fastOnly)
	}
}
