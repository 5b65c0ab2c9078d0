package savings

import (
	"fmt"
	"math"
	"math/big"

	"github.com/chessbook/chessbook/board"
)

// fenPosition parses a FEN the claims use (they are fixed and valid).
func fenPosition(fen string) (board.Position, error) {
	p, err := board.ParseFEN(fen)
	if err != nil {
		return board.Position{}, fmt.Errorf("claim position %q: %w", fen, err)
	}
	return p, nil
}

// verdict returns Holds when ok, else NotHolds.
func verdict(ok bool) string {
	if ok {
		return Holds
	}
	return NotHolds
}

// bitsFor returns the bits needed for values 0..n-1: bitlen(n-1).
func bitsFor(n *big.Int) int { return new(big.Int).Sub(n, big.NewInt(1)).BitLen() }

// seedClaims checks the seeds' figures against the implementation and,
// where the figure is about real games, against the report's corpus.
func seedClaims(r *Report) ([]Claim, error) {
	var cs []Claim
	add := func(seed, claim, expected, got, v, note string) {
		cs = append(cs, Claim{Seed: seed, Claim: claim, Expected: expected, Got: got, Verdict: v, Note: note})
	}
	start := board.StartPosition()
	corpusMax := func(id string) (float64, string, bool) {
		row := r.row(id)
		if row == nil || row.All.Count == 0 {
			return 0, "", false
		}
		return row.All.Max, row.MaxFEN, true
	}

	// Seed 000.
	sb := streamBoardBits(start.Occupied())
	add("000", "stream code: the start position in 18 bytes", "144 bits", fmt.Sprintf("%d bits", sb), verdict(sb == 144),
		fmt.Sprintf("+ %d header bits (clock, side, castling, en passant) = %d", streamHeader, sb+streamHeader))
	var four board.Bitboard
	for s := 4; s < 64; s += 5 {
		four |= board.Square(s).Bitboard()
	}
	fb := streamBoardBits(four)
	add("000", "stream code: at most 13 gaps of four squares (8 bits each): 20 bytes", "160 bits", fmt.Sprintf("%d bits (%d bytes)", fb, fb/8),
		verdict(fb == 160), "13 gaps of 4 leave room for 12 men only: 13*8 + 12*4 = 152 bits")
	alt := board.Bitboard(0x5555555555555555)
	ab := streamBoardBits(alt)
	add("000", "stream code: alternating man and gap, the maximum: 32 bytes", "256 bits", fmt.Sprintf("%d bits", ab), verdict(ab == 256), "")

	h := huffman000Bits(&start)
	if m, fen, ok := corpusMax("huffman000"); ok {
		add("000", "basic Huffman code: at most 204 bits", "<= 204", fmt.Sprintf("start %d, corpus max %.0f", h, m), verdict(m <= 204),
			"max at "+fen+"; the 204 counts 7 + 3 + 1 + 4 state bits, as this code does (15-bit header)")
	}
	add("000", "fine-tuned: a gap of up to 41 squares in 8 bits saves up to 33 bits", "33", fmt.Sprintf("%d", 41-runCost(41)), verdict(41-runCost(41) == 33), "")
	add("000", "fine-tuned: four gaps of nine save 16 bits", "16", fmt.Sprintf("%d", 4*(9-runCost(9))), verdict(4*(9-runCost(9)) == 16), "")
	if m, fen, ok := corpusMax("finetuned"); ok {
		add("000", "fine-tuned: never more than 24 bytes", "<= 192 bits", fmt.Sprintf("corpus max %.0f", m), verdict(m <= 192), "max at "+fen)
	}
	saved := ftBits(&start, ftOptions{noColourCount: true}) - ftBits(&start, ftOptions{})
	add("000", "colour count: saves 12 bits in the initial position", "12", fmt.Sprintf("%d", saved), verdict(saved == 12),
		"15 colour bits left out (the kings are out of the scan) for a 4-bit count: 11; the seed's 12 is 16 - 4, with the kings in the scan")
	five, err := fenPosition("4k3/8/8/pPppPppP/8/8/8/4K3 w - - 0 1")
	if err != nil {
		return nil, err
	}
	_, n5 := epCandidates(&five)
	add("000", "at most 5 seemingly en-passant-capturable pawns (3 bits)", "5", fmt.Sprintf("%d (constructed), %d seen in the corpus", n5, r.EPCandidatesMax),
		verdict(n5 == 5 && r.EPCandidatesMax <= 5), "8 files, each candidate beside one of the mover's pawns: 5 with 3 of them")

	// Seed 002.
	add("002", "64 squares x 4 bits = 256 bits", "256", "256 board bits (+1 side to move; 3 spare values carry castling and en passant)", Holds, "")
	b13 := base13BoardBits // a test checks it against bitsFor(13^64)
	add("002", "base 13: 13^64 ~ 1.96e71, 237 bits, 7.5% less than 256", "237", fmt.Sprintf("%d bits, 13^64 = %.3g, %.1f%% less", b13, math.Pow(13, 64), 100*(1-float64(b13)/256)),
		verdict(b13 == 237), "")
	vb := varBaseBoardBits // a test checks it against bitsFor(11^16 13^48)
	add("002", "variable base 11/13: 11^16 x 13^48 ~ 1.35e70, 233 bits", "233", fmt.Sprintf("%d bits, %.3g", vb, math.Pow(11, 16)*math.Pow(13, 48)),
		verdict(vb == 233), "")
	hb := huffBoardBits(&start)
	add("002", "Huffman table: the start position in 164 bits", "164", fmt.Sprintf("%d", hb), verdict(hb == 164),
		"the table's lengths (1, 3, 5, 5, 5, 6, 6) are seed 000's: both codes give every board the same size")
	pw := piecesSideBits(&start, board.White)
	pm, pfen, ok := corpusMax("pieces")
	got := fmt.Sprintf("%d per side, %d at the start", pw, piecesBoardBits(&start))
	if ok {
		got += fmt.Sprintf("; corpus max %.0f with the state suffix", pm)
	}
	add("002", "piece positions: 105 bits per side, 210 at worst (the start position)", "210", got, NotHolds,
		"6 + 1 + 3 + 45 + 4 + 7 x (2 + 6) = 115 per side; the worst case is not the start: 15 promoted pieces give 131 per side; corpus max at "+pfen)
	p8 := pawnBits[8]
	perm := new(big.Int).MulRange(41, 48)
	perm2 := new(big.Int).MulRange(33, 40)
	comb := new(big.Int).Binomial(48, 8)
	add("002", "pawns: 48^8 in 45 bits; 48x47x...x41 in 44 bits; 44 for White and 42 for Black without occupied squares", "45 / 44 / 44 + 42",
		fmt.Sprintf("%d / %d / %d + %d", p8, bitsFor(perm), bitsFor(perm), bitsFor(perm2)),
		verdict(p8 == 45 && bitsFor(perm) == 44 && bitsFor(perm2) == 42),
		fmt.Sprintf("pawns are alike: choosing 8 of 48 squares takes %d bits (C(48,8) = %s)", bitsFor(comb), comb))
	if m, _, ok := corpusMax("san"); ok {
		add("002", "SAN with a terminating byte: about 6 bytes (48 bits) per move at worst", "48", fmt.Sprintf("corpus max %.0f bits", m), verdict(m <= 48),
			"7-character moves exist (Qh4xe1#, exd8=Q+): 8 bytes")
	}
	ft := fromToBits(board.NewMove(board.E2, board.E4))
	add("002", "from/to squares: 12 bits per move", "12", fmt.Sprintf("%d (+2 for a promotion's piece)", ft), verdict(ft == 12), "")
	var buf [board.MaxMoves]board.Move
	n1 := len(start.LegalMoves(buf[:0]))
	after := start
	after.Play(board.NewMove(board.E2, board.E4))
	n2 := len(after.LegalMoves(buf[:0]))
	add("002", "20 possible moves for each side's first move", "20, 20", fmt.Sprintf("%d, %d (after 1.e4); most in the corpus %d", n1, n2, r.LegalMovesMax), verdict(n1 == 20 && n2 == 20), "")

	// Seed 004.
	idx := (8 + 8 + 2 + 2 + 1) * 6
	add("004", "static: the second White bishop at bit indexes [113, 119]", "[113, 119]", fmt.Sprintf("[%d, %d]", idx, idx+5), NotHolds,
		"16 pawn and 4 rook chunks come first: the second White bishop is chunk 21; a 6-bit chunk cannot span 7 indexes")
	add("004", "static method: 192 bits", "192", "192 board bits (+6 or 12 state bits here)", Holds, "captured men sit on their king's square; promoted men beyond the initial set do not fit")
	kk, err := fenPosition("8/4k3/8/8/8/8/8/4K3 w - - 0 1")
	if err != nil {
		return nil, err
	}
	dmin := dynamicBits(&kk)
	epMax, err := fenPosition("rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	if err != nil {
		return nil, err
	}
	dmax := dynamicBits(&epMax)
	got = fmt.Sprintf("%d, %d", dmin, dmax)
	if m, _, ok := corpusMax("dynamic"); ok {
		got += fmt.Sprintf("; corpus max %.0f", m)
	}
	add("004", "dynamic method: 42 to 228 bits", "42-228", got, verdict(dmin == 42 && dmax == 228), "228 needs all 32 men and a legal en-passant capture")
	for _, tc := range []struct {
		fen, fixed string
		bits, b85  int
	}{
		{board.StartFEN, "", 222, 35},
		{"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "", 222, 35},
		{"8/4k3/8/8/8/8/8/4K3 w - - 0 1", "", 42, 8},
		{"rnbqkblr/pppp1ppp/2n5/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "rnbqkb1r/pppp1ppp/2n5/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", 216, 34},
		{"rnbqkbnr/pppp1ppp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "rnbqkbnr/ppppp1pp/8/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 228, 37},
	} {
		fen := tc.fen
		note := ""
		if _, err := board.ParseFEN(fen); err != nil {
			note = fmt.Sprintf("the seed's FEN is not a position (%v); measured on %s", err, tc.fixed)
			fen = tc.fixed
		}
		p, err := fenPosition(fen)
		if err != nil {
			return nil, err
		}
		d := dynamicBits(&p)
		b85 := base85Len((d + 7) / 8)
		v := verdict(d == tc.bits && b85 == tc.b85)
		if note != "" && v == Holds {
			v = Corrected
		}
		add("004", "test case "+tc.fen, fmt.Sprintf("%d bits, base85 %d", tc.bits, tc.b85), fmt.Sprintf("%d bits, base85 %d", d, b85), v, note)
	}
	add("004", "the dynamic method matches the static one after two captures", "2", "4",
		NotHolds, "the dynamic code of all 32 men takes 216 board bits; each capture saves 6: 192 after four")
	if fen, dyn, dyn85 := r.row("fen"), r.row("dynamic"), r.row("dynamic85"); fen != nil && dyn != nil && dyn85 != nil && fen.All.Count > 0 {
		s85 := 100 * (1 - dyn85.All.Mean/fen.All.Mean)
		sb := 100 * (1 - dyn.All.Mean/fen.All.Mean)
		add("004", "about 35% smaller than FEN on average", "~35%", fmt.Sprintf("base85 text %.1f%%, binary %.1f%%", s85, sb),
			verdict(math.Abs(s85-35) <= 5), "FEN with both clocks, as the seed measures it")
		if dyn.Unrepresentable > 0 || dyn.All.Count > 0 {
			add("004", "the dynamic protocol represents any game state", "all", fmt.Sprintf("%d samples out of reach", dyn.Unrepresentable),
				verdict(dyn.Unrepresentable == 0), "a second queen or a third rook, knight or bishop overflows the Alive Bits")
		}
	}
	return cs, nil
}
