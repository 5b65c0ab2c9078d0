//go:build oracle

package pgn

import (
	"github.com/chessbook/chessbook/internal/testutil"
	"os"
	"path/filepath"
	"testing"
)

// TestParseLatin1Scid checks the Latin-1 conversion on Scid's test game,
// against Scid's own expected UTF-8 output.
func TestParseLatin1Scid(t *testing.T) {
	dir := filepath.Join(testutil.SharedData(t), "tricky", "scid_gtest")
	tags := func(name string) map[string]string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			testutil.Missing(t, "shared data: %v", err)
		}
		c := &tagCollector{tags: map[string]string{}}
		Parse(data, 1, c)
		return c.tags
	}
	got, want := tags("scid_res_gameLatin1.pgn"), tags("scid_res_gameLatin1expected.pgn")
	if len(want) < 10 {
		t.Fatalf("expected file gave only %d tags", len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("tag %s = %q, want %q", name, got[name], w)
		}
	}
	if got["White"] != "Kràmnìk, VlãÚdimir" || got["Site"] != "Elista RÜS" {
		t.Errorf("White = %q, Site = %q", got["White"], got["Site"])
	}
}

// TestCorpusLarge counts the games of the 412,227-game benchmark corpus,
// read sequentially.
func TestCorpusLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	path := filepath.Join(testutil.SharedData(t), "large", "pgnmentor_players_239files.pgn.zst")
	if _, err := os.Stat(path); err != nil {
		testutil.Missing(t, "shared data: %v", err)
	}
	rc, err := OpenCorpus(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var c countingVisitor
	if err := Read(rc, &c); err != nil {
		t.Fatal(err)
	}
	if c.games != 412227 || c.outcomes != 412227 || c.errors != 0 || c.unbalanced {
		t.Errorf("games %d, outcomes %d, errors %d, unbalanced %v; want 412227 games and outcomes, no errors",
			c.games, c.outcomes, c.errors, c.unbalanced)
	}
	t.Logf("%d games, %d moves", c.games, c.sans)
}
