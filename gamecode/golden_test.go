package gamecode

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/pgn"
	"strings"
)

// goldenRecords are the SHA-256 digests of the records of every game of
// each input (see recordsDigest), by coding: Ranked's made by Version 2's
// encoder, Indexed's by Version 3's. A change here is a change of the
// stored format.
var goldenRecords = map[Coding]map[string]string{Ranked: goldenRanked, Indexed: goldenIndexed}

var goldenIndexed = map[string]string{
	"testdata/champions500.pgn":  "faf152e9d0c2a973c804c4aa3c63ceef425dd003b770decc76d8410f8f920cb5",
	"testdata/lichess2k.pgn.zst": "4775f76b626b7a91941b847a713d23bfba86179fa79acbc7b45c9d052d756111",
	"testdata/tricky":            "de73f2ac18d52d2782db8c9ca422a890401589b2975dbc7a2001190f18bed4f0",
	"small/notnil_twic0920.pgn":  "2234eefeab748df2da0eee6acdbd2029c79a0e4c1eab3fc9736d4d37ddff3f71",
	"tricky":                     "653fad41c6088fb85a1619e00ba44052ce2c275a84f2e142338eb6b0644f22f5",
	"medium/lichess_10k.pgn.zst": "3aeb595b524603d6e7080c49f9a2d18774e1b6e6830585bf0603b0e974b4d636",
	"medium/pgnmentor_world_champions_16players.pgn.zst": "3a376b1635d3ef4ca8c7ac033e5c7c5ee8134115014680225c7cb990c6a85313",
}

var goldenRanked = map[string]string{
	"testdata/champions500.pgn":  "b5716a0ff60d20a4f7c0b9f5c9bcd9df8864f953b3124abc704e02d46fd8c5a8",
	"testdata/lichess2k.pgn.zst": "b315e8e69128a97b8dd90c434690ac8e19b21893b807cb6dd30a12b8f608c94a",
	"testdata/tricky":            "ca79bd588ff2bd1682c56567078a4629e681fb1629e3def139de5222c982ea5c",
	"small/notnil_twic0920.pgn":  "0d071e67555f05aa44a808ebc9d364902e9caeaf37123a6208f036b6d90e62d8",
	// tricky: 5,414 games (five files end inside a line of a game with no
	// result marker: read as cut off, that game is skipped).
	"tricky":                     "a721c05205350bc26bca948cef7afa4484703f7d36843744debf5834b1efcc32",
	"medium/lichess_10k.pgn.zst": "2dc65e81549b3c477682e60070d469e348efec0d2aadb0c3a66db2ba1e90b4f9",
	"medium/pgnmentor_world_champions_16players.pgn.zst": "b67ee80475fb6cf78063ecb5f6666ab78c3231197003d3b7251c8714272a4c7e",
}

// recordsDigest encodes every game of files in coding c, checks that
// each record decodes to the same moves, result and start, and returns
// the SHA-256 of the records in file and line order (each preceded by
// its file's path under root, its line and its length; a game that cannot be
// encoded contributes its error text instead), and the number of games.
func recordsDigest(t *testing.T, root string, files []string, c Coding) (string, int) {
	t.Helper()
	type rec struct {
		file string
		line int
		data []byte
	}
	var mu sync.Mutex
	var recs []rec
	_, err := ingest.Run(context.Background(), files, ingest.Options{}, func(int) ingest.Sink {
		return ingest.SinkFunc(func(g *pgn.Game) error {
			data, err := AppendGameCoded(nil, g, c)
			if err != nil {
				data = []byte("error: " + err.Error())
			} else {
				dg, err := DecodeGame(data)
				if err != nil {
					t.Errorf("%s:%d: decode: %v", g.File, g.Line, err)
				} else if !slices.Equal(dg.Moves, g.Moves) || dg.Result != g.Result || dg.Start != g.Start || dg.FromFEN != g.FromFEN {
					t.Errorf("%s:%d: decoded game differs", g.File, g.Line)
				}
			}
			mu.Lock()
			name, err := filepath.Rel(root, g.File)
			if err != nil {
				name = filepath.Base(g.File)
			}
			recs = append(recs, rec{filepath.ToSlash(name), g.Line, data})
			mu.Unlock()
			return nil
		})
	})
	if err != nil {
		t.Logf("%v: %v", files, err)
	}
	slices.SortFunc(recs, func(a, b rec) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), bytes.Compare(a.data, b.data))
	})
	h := sha256.New()
	var n [8]byte
	for _, r := range recs {
		h.Write([]byte(r.file))
		binary.LittleEndian.PutUint32(n[:4], uint32(r.line))
		binary.LittleEndian.PutUint32(n[4:], uint32(len(r.data)))
		h.Write(n[:])
		h.Write(r.data)
	}
	return hex.EncodeToString(h.Sum(nil)), len(recs)
}

// TestGoldenRecords checks that the records of real games are
// byte-identical to those of the frozen format.
//
// The inputs under testdata/ are the repository's; the others, of
// shared/data, are read with -tags oracle.
func TestGoldenRecords(t *testing.T) {
	for _, c := range []Coding{Indexed, Ranked} {
		golden := goldenRecords[c]
		keys := make([]string, 0, len(golden))
		for k := range golden {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !strings.HasPrefix(k, "testdata/") && !withOracles {
				continue
			}
			t.Run(c.String()+"/"+k, func(t *testing.T) {
				var files []string
				var root string
				switch {
				case k == "testdata/tricky":
					root = filepath.Join(testutil.RepoRoot(t), "testdata")
					for _, pat := range []string{"tricky/*.pgn", "tricky/*/*.pgn"} {
						m, _ := filepath.Glob(filepath.Join(root, pat))
						files = append(files, m...)
					}
				case k == "tricky":
					root = testutil.SharedData(t)
					for _, pat := range []string{"tricky/*.pgn", "tricky/*/*.pgn"} {
						m, _ := filepath.Glob(filepath.Join(root, pat))
						files = append(files, m...)
					}
				case filepath.Dir(k) == "testdata":
					// Relative to an absolute root: the digest names the file by its base name.
					root = testutil.RepoRoot(t)
					files = []string{filepath.Join("..", k)}
				default:
					if testing.Short() && filepath.Dir(k) == "medium" {
						t.Skip("medium input: not with -short")
					}
					root = testutil.SharedData(t)
					files = []string{filepath.Join(root, k)}
				}
				got, n := recordsDigest(t, root, files, c)
				if n == 0 {
					t.Fatalf("no games in %v", files)
				}
				if want := golden[k]; got != want {
					t.Errorf("%d games: records digest %s, want %s", n, got, want)
				}
			})
		}
	}
}
