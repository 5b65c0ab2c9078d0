package gamecode

import (
	"bytes"
	"testing"

	"github.com/chessbook/chessbook/pgn"
)

// FuzzDecodeGame feeds DecodeGame arbitrary bytes, seeded with the records
// of real games. DecodeGame must never panic, and whatever it accepts must
// be a legal game that prints, re-encodes (in the record's coding),
// decodes back to the same game and re-encodes to the same record (records
// made by AppendGameCoded are canonical); when its tags are plain text, it starts from the standard
// position and it has tags or moves, its PGN must parse back to the same
// moves.
func FuzzDecodeGame(f *testing.F) {
	files := []string{"../testdata/champions500.pgn"}
	files = append(files, sharedSmallPGN(f)...)
	for _, file := range files {
		games := readGames(f, file)
		for i, g := range games {
			if i%100 != 0 && i != len(games)-1 {
				continue
			}
			for _, c := range codings {
				rec, err := AppendGameCoded(nil, g, c)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(rec)
			}
		}
	}
	for _, v := range []byte{VersionIndexed, VersionRanked} {
		f.Add([]byte{v, 0xFF, 0xFF, 0xFF})
		f.Add([]byte{v})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeGame(b)
		if err != nil {
			if !IsCorrupt(err) {
				t.Fatalf("error %v does not wrap the corrupt error", err)
			}
			return
		}
		text := pgn.Append(nil, &g)
		ig := g.Clone()
		c := codingOf(b[0]) // b's coding: the record is b's canonical form
		rec, err := AppendGameCoded(nil, ig, c)
		if err != nil {
			t.Fatalf("re-encoding a decoded game: %v", err)
		}
		g2, err := DecodeGame(rec)
		if err != nil {
			t.Fatalf("decoding a re-encoded game: %v", err)
		}
		if err := sameGame(ig, &g2, true); err != nil {
			t.Fatalf("re-encoded game differs: %v", err)
		}
		rec2, err := AppendGameCoded(nil, &g2, c)
		if err != nil || !bytes.Equal(rec, rec2) {
			t.Fatalf("record not canonical: %x then %x (%v)", rec, rec2, err)
		}
		if g.FromFEN || !plainTags(g.Tags) || len(g.Tags) == 0 && len(g.Moves) == 0 {
			return // not plain PGN, or no game for a PGN reader (a lone result is not one)
		}
		pg, err := reparse(text)
		if err != nil {
			t.Fatalf("printed game does not parse: %v\n%s", err, text)
		}
		if err := sameGame(ig, &pgn.Game{Tags: g.Tags, Moves: pg.Moves, Start: pg.Start, FromFEN: pg.FromFEN}, false); err != nil {
			t.Fatalf("printed game parses to another game: %v\n%s", err, text)
		}
	})
}

// plainTags reports whether the tags are ones PGN text carries unchanged:
// names of letters, digits and underscores, values of printable ASCII, and
// none that changes how the movetext is read.
func plainTags(tags []pgn.Tag) bool {
	for _, t := range tags {
		if name := string(t.Name); name == "" || name == "FEN" || name == "SetUp" || name == "Variant" {
			return false
		}
		for i := 0; i < len(t.Name); i++ {
			c := t.Name[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
		for i := 0; i < len(t.Value); i++ {
			if c := t.Value[i]; c < 0x20 || c > 0x7e {
				return false
			}
		}
	}
	return true
}
