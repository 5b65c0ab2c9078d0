//go:build oracle

package build_test

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/export"
	"github.com/chessbook/chessbook/filter"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/internal/storetest"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/store"
)

func TestReferenceBooksWorldChampions(t *testing.T) {
	t.Parallel() // beside the other long oracles of the package: the build alone does not keep two cores busy
	data := testutil.SharedData(t)
	in := filepath.Join(data, "medium", "pgnmentor_world_champions_16players.pgn.zst")
	t.Run("default", func(t *testing.T) {
		st, sum, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
		if sum.Games != 32601 || bs.Games != 32601 {
			t.Fatalf("read %d, ingested %d games; want 32601", sum.Games, bs.Games)
		}
		ref := filepath.Join(data, "reference", "polyglot204_makebook_default__pgnmentor_world_champions_16players.bin")
		compareReference(t, st, ref, 3)
		storetest.CompareExport(t, st, ref, export.Options{MinGame: 3})
	})
	t.Run("maxply20_mingame1", func(t *testing.T) {
		st, _, _ := buildBook(t, build.Options{MaxPly: 20, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
		ref := filepath.Join(data, "reference", "polyglot204_makebook_maxply20_mingame1__pgnmentor_world_champions_16players.bin")
		compareReference(t, st, ref, 1)
		storetest.CompareExport(t, st, ref, export.Options{MinGame: 1, MaxPly: 20})
	})
}

func TestReferenceBookLichess(t *testing.T) {
	t.Parallel() // beside the other long oracles of the package: the build alone does not keep two cores busy
	data := testutil.SharedData(t)
	in := filepath.Join(data, "medium", "lichess_10k.pgn.zst")
	st, sum, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, Filter: filter.Filter{StandardStartOnly: true}, KeepDuplicates: true, Inputs: []string{in}}, in)
	// 106 games start from a FEN: 104 are filtered out, and 2 are skipped
	// because their FEN has more than 8 pawns of one colour.
	if bs.Games != 9894 || bs.Filtered[filter.ByStart] != 104 || sum.Skipped[ingest.SkipBadFEN] != 2 {
		t.Fatalf("ingested %d, filtered %v, skipped %v; want 9894, 104 FEN starts and 2 bad FENs", bs.Games, bs.Filtered, sum.Skipped)
	}
	ref := filepath.Join(data, "reference", "polyglot204_makebook_default__corentings_lichess10k_nosetup.bin")
	compareReference(t, st, ref, 3)
	storetest.CompareExport(t, st, ref, export.Options{MinGame: 3})
}

func TestReferenceBookPlayers(t *testing.T) {
	t.Parallel() // beside the other long oracles of the package: the build alone does not keep two cores busy
	if testing.Short() {
		t.Skip("large corpus skipped with -short")
	}
	data := testutil.SharedData(t)
	in := filepath.Join(data, "large", "pgnmentor_players_239files.pgn.zst")
	st, sum, bs := buildBook(t, build.Options{MaxPly: 1024, CountMode: store.CountOccurrence, KeepDuplicates: true, Inputs: []string{in}}, in)
	if sum.Games != 412227 || bs.Games != 412225 || sum.Skipped[ingest.SkipIllegalMove] != 2 {
		t.Fatalf("read %d, ingested %d, skipped %v; want 412227, 412225 and the 2 illegal games", sum.Games, bs.Games, sum.Skipped)
	}
	ref := filepath.Join(data, "reference", "polyglot204_makebook_default__pgnmentor_players_239files_pgnextract_clean.bin")
	compareReference(t, st, ref, 3)
	// The exported book, byte for byte (one large build serves both
	// checks).
	storetest.CompareExport(t, st, ref, export.Options{MinGame: 3})
}
