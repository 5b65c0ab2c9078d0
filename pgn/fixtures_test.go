package pgn

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFixtures parses the small hand-written files of testdata/pgn, which
// need no shared data, and pins their callbacks exactly.
func TestFixtures(t *testing.T) {
	for name, want := range map[string]string{
		"mixed.pgn": `B2 T:Event="escapes" T:White="New-cfe8\"dsadsa\"ce842c" T:Black="back\\slash" T:Result="1-0" M e4@7 e5@7 Nf3@7 Nc6@7 Bb5@7 a6@7 O:1-0 E ` +
			`B9 T:Event="Tournament \"Championship\" Finals" T:Site="unclosed quote" T:Variation="closing ] opening" T:Result="*" M d4@14 Nf6@14 c4@14 e6@14 Nc3@14 Bb4@14 O:* E ` +
			`B16 T:Event="no moves" T:Result="*" M O:* E ` +
			`B21 T:Event="header only" T:Result="1/2-1/2" M E ` +
			`B24 T:Event="missing result" M e4@26 c5@26 Nf3@26 d6@26 d4@26 cxd4@26 Nxd4@26 Nf6@26 Nc3@26 a6@26 E ` +
			`B28 T:Event="null move and glued numbers" T:Result="*" M e4@31 e5@31 --@31 Nc6@31 d4@31 exd4@31 Bc5@31 O-O@31 O:* E ` +
			`B33 M d4@33 d5@33 c4@33 e6@33 O:1-0 E ` +
			`B35 T:Event="lichess comments" T:Result="0-1" M f3@38 e5@38 g4@39 Qh4@39 O:0-1 E`,
		"latin1.pgn": `B1 T:Event="Championnat de France" T:Site="Besançon" T:White="Müller, Jörg" T:Black="Ljubojeviæ, Ljubomir" T:Annotator="€ Š" T:Result="1/2-1/2" M e4@8 c5@8 Nf3@8 d6@8 O:1/2-1/2 E`,
		"cr_only.pgn": `B1 T:Event="CR" T:Result="1-0" M e4@4 e5@4 Qh5@4 Nc6@4 Bc4@5 Nf6@5 Qxf7@5 O:1-0 E ` +
			`B7 T:Event="CR 2" T:Result="*" M d4@10 d5@11 O:* E`,
		"bom_crlf.pgn": `B1 T:Event="" T:Site="" T:Result="0-1" M f3@5 e5@5 g4@5 Qh4@5 O:0-1 E ` +
			`B7 T:Event="second file, concatenated" T:Result="*" M e4@10 O:* E`,
		"garbage.pgn": `B2 M X2:unexpected text "404" E`,
	} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "pgn", name))
			if err != nil {
				t.Fatal(err)
			}
			r := recorder{withReasons: true}
			Parse(data, 1, &r)
			if got := r.b.String(); got != want {
				t.Errorf("\n got: %s\nwant: %s", got, want)
			}
			checkSplitEquivalence(t, data)
		})
	}
}
