package gamecode

import (
	"bytes"
	"testing"
)

func TestBlock(t *testing.T) {
	games := readGames(t, "../testdata/champions500.pgn")
	var recs [][]byte
	raw := 0
	for _, g := range games {
		rec, err := AppendGame(nil, g)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		raw += len(rec)
	}
	c, err := NewBlockCodec()
	if err != nil {
		t.Fatal(err)
	}
	blk := c.Compress(nil, recs)
	t.Logf("%d records, %d bytes; block %d bytes (format %d)", len(recs), raw, len(blk), blk[0])
	got, err := c.Decompress(blk)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("%d records back, want %d", len(got), len(recs))
	}
	for i := range recs {
		if !bytes.Equal(got[i], recs[i]) {
			t.Fatalf("record %d differs", i)
		}
	}
	for i := 0; i < len(blk); i += 7 {
		if _, err := c.Decompress(blk[:i]); err == nil {
			t.Errorf("block cut to %d bytes: no error", i)
		}
	}
	if _, err := CompressBlock(nil); err != nil {
		t.Error(err)
	}
}

func benchGames(b *testing.B) ([]*Game, [][]byte, int) {
	games := readGames(b, "../testdata/champions500.pgn")
	var recs [][]byte
	var dec []*Game
	plies := 0
	for _, g := range games {
		rec, err := AppendGame(nil, g)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, rec)
		plies += len(g.Moves)
		dg, _ := DecodeGame(rec)
		dec = append(dec, &dg)
	}
	return dec, recs, plies
}

func BenchmarkEncode(b *testing.B) {
	games := readGames(b, "../testdata/champions500.pgn")
	plies := 0
	for _, g := range games {
		plies += len(g.Moves)
	}
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range games {
			buf, _ = AppendGame(buf[:0], g)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
}

func BenchmarkDecode(b *testing.B) {
	_, recs, plies := benchGames(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range recs {
			if _, err := DecodeGame(r); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
}

func BenchmarkPGN(b *testing.B) {
	games, _, plies := benchGames(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range games {
			_ = g.PGN()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plies), "ns/ply")
}
