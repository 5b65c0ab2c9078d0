package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// savingsRows is the part of the savings JSON the tests read.
type savingsRows struct {
	Command   string `json:"command"`
	Games     int    `json:"games"`
	Positions int    `json:"position_samples"`
	Distinct  int    `json:"distinct_positions"`
	Rows      []struct {
		ID  string `json:"id"`
		All struct {
			Count  int     `json:"count"`
			Mean   float64 `json:"mean"`
			Median float64 `json:"median"`
			Max    float64 `json:"max"`
			Min    float64 `json:"min"`
		} `json:"all"`
		Bands []struct {
			Count int `json:"count"`
		} `json:"bands"`
		Unrepresentable int `json:"unrepresentable"`
	} `json:"positions"`
	Moves []struct {
		ID  string `json:"id"`
		All struct {
			Mean float64 `json:"mean"`
		} `json:"all"`
	} `json:"moves"`
	Claims []struct {
		Claim, Got, Verdict string
	} `json:"seed_claims"`
}

// runSavingsCLI runs 'bookbuild savings ARGS' in-process.
func runSavingsCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(append([]string{"savings"}, args...), &o, &e)
	return code, o.String(), e.String()
}

func TestSavingsText(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "c.svg")
	code, out, errOut := runSavingsCLI(t, "-q", "-chart", chart, "../../testdata/champions500.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"command:   bookbuild savings -q -chart", "500 games; 38,955 position samples",
		"fen ", "nibbles ", "base13 ", "varbase ", "stream ", "huffman000 ", "huffman002 ", "finetuned ", "pieces ",
		"static ", "dynamic ", "dynamic85 ", "key ", "keytext ", "zobrist64 ", "hash128 ",
		"san ", "fromto ", "legalindex ", "legalradix ", "gamecode ", "zstd-game ", "zstd-stream ", "input ",
		"ply 0-10", "ply 81+", "On disk", "PolyGlot book", "Seed claims",
		"test case rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "222 bits, base85 35",
		"Huffman table: the start position in 164 bits",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	svg, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), ">huffman000<") || !strings.HasSuffix(string(svg), "</svg>\n") {
		t.Errorf("chart is not the SVG expected: %.200s", svg)
	}
}

func TestSavingsJSON(t *testing.T) {
	code, out, errOut := runSavingsCLI(t, "-q", "-format", "json", "../../testdata/champions500.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r savingsRows
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %.300s", err, out)
	}
	if r.Games != 500 || r.Positions != 38955 || r.Distinct < 30000 || r.Distinct > r.Positions {
		t.Errorf("games %d, positions %d, distinct %d", r.Games, r.Positions, r.Distinct)
	}
	row := map[string]int{}
	for i, x := range r.Rows {
		row[x.ID] = i
		if x.All.Count+x.Unrepresentable != r.Positions {
			t.Errorf("%s: %d samples + %d unrepresentable, want %d", x.ID, x.All.Count, x.Unrepresentable, r.Positions)
		}
		if len(x.Bands) != 5 {
			t.Errorf("%s: %d bands", x.ID, len(x.Bands))
		}
		if !(x.All.Min <= x.All.Median && x.All.Median <= x.All.Max && x.All.Min <= x.All.Mean && x.All.Mean <= x.All.Max) {
			t.Errorf("%s: min %v, median %v, mean %v, max %v out of order", x.ID, x.All.Min, x.All.Median, x.All.Mean, x.All.Max)
		}
	}
	get := func(id string) (mean, min, max float64) {
		i, ok := row[id]
		if !ok {
			t.Fatalf("no row %s", id)
		}
		a := r.Rows[i].All
		return a.Mean, a.Min, a.Max
	}
	// Fixed sizes, and what the start position (one sample per game) gives.
	if m, lo, hi := get("nibbles"); m != 257 || lo != 257 || hi != 257 {
		t.Errorf("nibbles: %v %v %v, want 257", m, lo, hi)
	}
	if _, lo, _ := get("base13"); lo != 237+1 {
		t.Errorf("base13 min %v, want 238 (237 + side bit at least)", lo)
	}
	if _, _, hi := get("dynamic"); hi > 228 {
		t.Errorf("dynamic max %v above the seed's 228", hi)
	}
	if m, _, _ := get("fen"); m < 50*8 || m > 62*8 {
		t.Errorf("fen mean %v bits: not 50-62 characters", m)
	}
	if m, _, _ := get("key"); m < 10*8 || m > 14*8 {
		t.Errorf("key mean %v bits: not 10-14 bytes", m)
	}
	if _, lo, hi := get("zobrist64"); lo != 64 || hi != 64 {
		t.Errorf("zobrist64: %v..%v", lo, hi)
	}
	for _, m := range r.Moves {
		if m.ID == "fromto" && (m.All.Mean < 12 || m.All.Mean > 12.1) {
			t.Errorf("fromto mean %v", m.All.Mean)
		}
		if m.ID == "gamecode" && (m.All.Mean < 2 || m.All.Mean > 6) {
			t.Errorf("gamecode mean %v bits per move", m.All.Mean)
		}
	}
	if len(r.Claims) < 20 {
		t.Errorf("%d seed claims", len(r.Claims))
	}
}

func TestSavingsMarkdownAndBands(t *testing.T) {
	code, out, errOut := runSavingsCLI(t, "-q", "-format", "markdown", "-bands", "men", "../../testdata/champions500.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# Storage savings", "| fen | 000 |", "32-29 men", "## Seed claims", "Command: `bookbuild savings"} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}
}

func TestSavingsBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-format", "yaml", "x.pgn"},
		{"-bands", "moon", "x.pgn"},
		{"-gamecode-every", "0", "x.pgn"},
		{"-nosuchflag"},
	} {
		if code, _, _ := runSavingsCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	code, _, errOut := runSavingsCLI(t, "-q", filepath.Join(t.TempDir(), "missing.pgn"))
	if code != 1 || !strings.Contains(errOut, "missing.pgn") {
		t.Errorf("missing input: exit %d, %q", code, errOut)
	}
}
