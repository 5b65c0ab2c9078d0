package board

import "testing"

// chess960Perft are the first positions of the Chess960 perft suite, with
// its published node counts (chessprogramming.org "Chess960 Perft
// Results", as other move generators quote them; nodes[i] is perft(i+1)). The castling fields are Shredder-FEN,
// as published; every castling right is one of a king and a rook off e / a
// / h, so each is a Chess960 position.
var chess960Perft = []perftCase{
	{"960-1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		[]uint64{21, 528, 12189, 326672, 8146062}, 3},
	{"960-2", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
		[]uint64{21, 807, 18002, 667366, 16253601}, 3},
	{"960-3", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
		[]uint64{20, 479, 10471, 273318, 6417013}, 3},
	{"960-4", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
		[]uint64{22, 593, 13440, 382958, 9183776}, 3},
	{"960-5", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
		[]uint64{28, 1120, 31058, 1171749, 34030312}, 3},
	{"960-6", "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
		[]uint64{29, 899, 26578, 824055, 24851983}, 3},
	{"960-7", "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9",
		[]uint64{30, 860, 24566, 732757, 21093346}, 3},
	{"960-8", "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 9",
		[]uint64{25, 635, 17054, 465806, 13203304}, 3},
	{"960-9", "qnnbbrkr/1p2ppp1/2pp3p/p7/1P5P/2NP4/P1P1PPP1/Q1NBBRKR w HFhf - 0 9",
		[]uint64{24, 572, 15243, 384260, 11110203}, 3},
	{"960-10", "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9",
		[]uint64{28, 811, 23175, 679699}, 3},
	{"960-11", "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
		[]uint64{33, 823, 26895, 713420, 23114629}, 3},
	// The king already on its castling destination (g1): O-O moves the rook only.
	{"king-on-g1", "n1bb1rkr/qpnppppp/2p5/p7/P1P5/5P2/1P1PPRPP/NQBBN1KR w Hhf - 1 9",
		[]uint64{27, 697, 18724, 505089, 14226907}, 3},
}

// TestPerftChess960 runs the Chess960 suite: castling with the king and
// rooks anywhere on the back rank, king takes own rook, rights lost by
// rook moves and captures off the corners.
func TestPerftChess960(t *testing.T) {
	for _, tc := range chess960Perft {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if p.CastlingMode() != CastlingChess960 {
				t.Fatalf("%s: mode %v, want chess960", tc.fen, p.CastlingMode())
			}
			for d, want := range tc.nodes {
				depth := d + 1
				if depth > tc.short && testing.Short() {
					break
				}
				if got := p.Perft(depth); got != want {
					t.Errorf("perft(%d) = %d, want %d\n%s", depth, got, want, divide(&p, depth))
					break
				}
			}
		})
	}
}
