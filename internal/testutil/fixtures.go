package testutil

// GoldenKey is a position with the key it must always have.
type GoldenKey struct{ FEN, Hex, Text string }

// GoldenKeys are keys that must never change: the key format is frozen.
// They are repeated in keys/FORMAT.md for other implementations.
var GoldenKeys = []GoldenKey{
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "5000241c0402", "UAAkHAQC"},
	{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "5080206da04020", "UIAgbaBAIA"},
	{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "5000207c80e05014", "UAAgfIDgUBQ"},
	{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "5000207c80e05010", "UAAgfIDgUBA"},
	{"r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9", "11291400408e00b0c0", "ESkUAECOALDA"},
	{"8/5pk1/6p1/3R4/5P2/6PK/r7/8 b - - 0 45", "00f3857f2ca7df1b68", "APOFfyyn3xto"},
	{"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1", "007e7bfe22cffc80", "AH57_iLP_IA"},
	{"8/8/8/8/8/8/8/K6k w - - 0 1", "00767fffffe0", "AHZ____g"},
}

// PerftFENs are the positions of the standard perft suite
// (chessprogramming.org "Perft Results"): the start position, Kiwipete,
// positions 3 to 6 and position 4 mirrored.
var PerftFENs = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}
