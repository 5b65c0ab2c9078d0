package board

import (
	"strings"
	"testing"
)

var goodFENs = []string{
	StartFEN,
	"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
	"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"4k3/8/8/8/8/8/8/4K3 w - - 99 200",
	"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
	"r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
	"7k/8/8/8/8/8/8/K7 b - - 65535 65535",
	// Double check (knight and rook), legal.
	"4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
	// Ep square recorded although no capture is possible (PGN's convention).
	"rnbqkbnr/1ppppppp/8/p7/8/8/PPPPPPPP/RNBQKBNR w KQkq a6 0 2",
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range goodFENs {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", fen, err)
			continue
		}
		if got := p.FEN(); got != fen {
			t.Errorf("FEN round trip: got %q, want %q", got, fen)
		}
		if got := string(p.AppendFEN([]byte("x"))); got != "x"+fen {
			t.Errorf("AppendFEN: got %q", got)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("Validate(%q): %v", fen, err)
		}
	}
	p := StartPosition()
	if got := p.FEN(); got != StartFEN {
		t.Errorf("StartPosition().FEN() = %q", got)
	}
}

func TestFENMissingClocks(t *testing.T) {
	for in, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4K3 w -":                              "", // too few fields, see below
		"4k3/8/8/8/8/8/8/4K3 w - -":                            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 b - - 7":                          "4k3/8/8/8/8/8/8/4K3 b - - 7 1",
		"  4k3/8/8/8/8/8/8/4K3 w - - 3 9\r\n":                  "4k3/8/8/8/8/8/8/4K3 w - - 3 9",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -": StartFEN,
	} {
		p, err := ParseFEN(in)
		if want == "" {
			if err == nil {
				t.Errorf("ParseFEN(%q) succeeded, want error", in)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", in, err)
			continue
		}
		if got := p.FEN(); got != want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", in, got, want)
		}
	}
}

// badFENs maps invalid FENs to a fragment of the expected error message.
var badFENs = []struct{ fen, msg string }{
	{"", "empty"},
	{"   ", "empty"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "has 1 fields"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "more than 6 fields"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", "single spaces"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq - 0 1", "bad piece letter"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has 9 squares"},
	{"rnbqkbnr/pppppppp/8/8/8/44/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has two consecutive digits"},
	{"rnbqkbnr/pppppppp/8/8/8/9/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter '9' in rank 3"},
	{"rnbqkbnr/pppppppp/8/8/8/0/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter '0'"},
	{"rnbqkbnr/pppppppp/8/8/8/7p1/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 9 squares"},
	{"rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3 has 7 squares"},
	{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
	{"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "more than 8 ranks"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "bad piece letter 'X' in rank 1"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "bad side to move"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "bad side to move"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "repeated"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "bad castling field"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KHha - 0 1", "gives the white king-side right twice"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq- - 0 1", "bad castling field"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right K but no white rook on h1"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1", "castling right K but no white king on e1"},
	{"1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling right q but no black rook on a8"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "bad en-passant field"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", "bad en-passant field"},
	{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "not on rank 3"},
	{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "not on rank 6"},
	{"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1", "e3 is occupied"},
	{"rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "is occupied"},
	{"rnbqkbnr/pppppppp/8/8/3P4/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "without a white pawn on e4"},
	{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/R1BQKBNR b KQkq e3 0 1", "e2 (where the pawn came from) is occupied"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "bad half-move clock"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "bad half-move clock"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1", "bad half-move clock"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "bad full-move number"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +1", "bad full-move number"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999", "bad full-move number"},
	{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has no king"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1", "white has 2 kings"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1", "pawn on h1"},
	{"Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQk - 0 1", "pawn on a8"},
	{"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "black (not to move) is in check"},
	{"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "white (not to move) is in check"},
	{"4k3/8/8/8/8/8/8/3K1K2 w - - 0 1", "white has 2 kings"},
	{"4k3/8/8/8/8/8/4r3/r3K2r w - - 0 1", "white is in check by 3 pieces"},
	{"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "black has 9 pawns"},
	{"4k3/pppppppp/8/8/8/8/8/QQ2K3 w - - 0 1", "white has 0 pawns and 1 promoted"}, // fine: see below
	// The garbled perft positions that circulate (see perftSuite).
	{"r3k2r/p1ppqpb1/bn2pnp1/3pP3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "black has 9 pawns"},
	{"r3k2r/Pppp1ppp/1r3nbN/Nn5p/bbPPP3/8/P2P1PPP/R2Q1RK1 w kq - 0 1", "white has 9 pawns"},
	{"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N1P/1PP1QPPP/R4RK1 w - - 0 10", "white has 9 pawns"},
	{"QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1", "men, more than 16"},
	{"4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1", "8 pawns and 1 promoted pieces"},
}

func TestBadFENs(t *testing.T) {
	for _, tc := range badFENs {
		if strings.HasPrefix(tc.msg, "white has 0 pawns") {
			// Two queens and no pawns is legal; make sure it parses.
			if _, err := ParseFEN(tc.fen); err != nil {
				t.Errorf("ParseFEN(%q): %v", tc.fen, err)
			}
			continue
		}
		_, err := ParseFEN(tc.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q) succeeded, want error containing %q", tc.fen, tc.msg)
			continue
		}
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("ParseFEN(%q) error %q, want it to contain %q", tc.fen, err, tc.msg)
		}
		if !strings.HasPrefix(err.Error(), "board: fen ") {
			t.Errorf("ParseFEN(%q) error %q lacks the board: fen prefix", tc.fen, err)
		}
	}
}

func TestSettersAndValidate(t *testing.T) {
	var p Position
	p.Clear()
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "white has no king") {
		t.Errorf("Validate on empty board: %v", err)
	}
	p.Put(E1, WhiteKing)
	p.Put(E8, BlackKing)
	p.Put(H1, WhiteRook)
	p.Put(E4, WhitePawn)
	p.Put(D4, BlackPawn)
	p.SetSideToMove(Black)
	p.SetCastling(WhiteKingSide)
	p.SetEPSquare(MakeSquare(4, 2)) // e3
	p.SetClocks(0, 12)
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	const want = "4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 12"
	if got := p.FEN(); got != want {
		t.Errorf("FEN = %q, want %q", got, want)
	}
	q, err := ParseFEN(want)
	if err != nil || q != p {
		t.Errorf("ParseFEN(%q) = %v, %v; differs from the built position", want, q.FEN(), err)
	}
	if got := p.LegalEPSquare(); got != MakeSquare(4, 2) {
		t.Errorf("LegalEPSquare = %v, want e3", got)
	}
	if got := p.PolyglotEPFile(); got != 4 {
		t.Errorf("PolyglotEPFile = %d, want 4", got)
	}
	// Replacing and removing pieces keeps bitboards consistent.
	p.Put(H1, WhiteQueen)
	p.Put(H1, NoPiece)
	p.SetCastling(0)
	if err := p.Validate(); err != nil {
		t.Errorf("Validate after Put/remove: %v", err)
	}
	if p.PieceAt(H1) != NoPiece || p.ByType(Queen) != 0 || p.ByType(Rook) != 0 {
		t.Errorf("Put(NoPiece) did not empty h1")
	}
	p.SetCastling(BlackQueenSide)
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "castling right q but no black rook on a8") {
		t.Errorf("Validate with bad castling: %v", err)
	}
	p.SetCastling(0)
	p.SetEPSquare(MakeSquare(3, 2)) // d3: no white pawn on d4
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "en-passant") {
		t.Errorf("Validate with bad ep: %v", err)
	}
	p.SetEPSquare(200)
	if p.EPSquare() != NoSquare {
		t.Errorf("SetEPSquare(200) should clear the ep square")
	}
	p.SetClocks(-5, 0)
	if p.HalfMoveClock() != 0 || p.FullMoveNumber() != 1 {
		t.Errorf("SetClocks clamps: got %d %d", p.HalfMoveClock(), p.FullMoveNumber())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Put with an invalid piece did not panic")
			}
		}()
		p.Put(A1, Piece(7))
	}()
}

func TestEPSquares(t *testing.T) {
	tests := []struct {
		fen      string
		legal    Square
		polyFile int
	}{
		// No pawn beside the double-stepped pawn.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", NoSquare, -1},
		// Capture possible.
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", MakeSquare(5, 5), 5},
		// Pawn beside but the capture is illegal: rank pin along the fifth rank.
		{"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", NoSquare, 3},
		// Pawn beside, but the capturing pawn is pinned diagonally.
		{"8/8/8/1k1pP3/8/8/7B/4K3 b - - 0 1", NoSquare, -1},
		{"4k3/8/8/2bpP3/8/8/8/K7 w - d6 0 1", MakeSquare(3, 5), 3},
		// exd6 would uncover the f6 bishop's check on a1.
		{"4k3/8/5b2/3pP3/8/8/8/K6R w - d6 0 1", NoSquare, 3},
		{"4k3/8/8/3pP3/8/8/8/7K w - d6 0 1", MakeSquare(3, 5), 3},
		// Capturing en passant removes the checking pawn.
		{"8/8/8/3k4/4Pp2/8/8/4K3 b - e3 0 1", MakeSquare(4, 2), 4},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tc.fen, err)
			continue
		}
		if got := p.LegalEPSquare(); got != tc.legal {
			t.Errorf("%s: LegalEPSquare = %v, want %v", tc.fen, got, tc.legal)
		}
		if got := p.PolyglotEPFile(); got != tc.polyFile {
			t.Errorf("%s: PolyglotEPFile = %d, want %d", tc.fen, got, tc.polyFile)
		}
	}
}
