package polyglot

import (
	"os"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// roundTripFENs are positions with castling both ways for both sides,
// promotions (with captures), en passant and checks.
var roundTripFENs = []string{
	board.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // Kiwipete
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	"k7/8/8/8/8/8/6K1/4R3 w - - 0 1", // a rook on e1
	"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7",
}

// walk calls f for every position reachable from p in at most depth plies.
func walk(p *board.Position, depth int, f func(p *board.Position, moves []board.Move)) {
	var buf [board.MaxMoves]board.Move
	moves := p.LegalMoves(buf[:0])
	f(p, moves)
	if depth == 0 {
		return
	}
	for _, m := range moves {
		q := *p
		q.Play(m)
		walk(&q, depth-1, f)
	}
}

// checkRoundTrip checks Encode then Decode of every legal move of p.
func checkRoundTrip(t *testing.T, p *board.Position, moves []board.Move) {
	t.Helper()
	for _, m := range moves {
		e := EncodeMove(p, m)
		if m.Kind() == board.MoveCastling {
			if s := MoveString(e); s != "e1h1" && s != "e1a1" && s != "e8h8" && s != "e8a8" {
				t.Fatalf("%s: castling %s encoded as %s", p.FEN(), m, s)
			}
		}
		if got := EncodeMove(nil, m); got != e {
			t.Fatalf("%s: EncodeMove(nil, %s) = %s, with the position %s", p.FEN(), m, MoveString(got), MoveString(e))
		}
		d, err := DecodeMove(p, e)
		if err != nil {
			t.Fatalf("%s: %s: %v", p.FEN(), m, err)
		}
		if d != m {
			t.Fatalf("%s: %s encoded %s decoded %s (%#04x vs %#04x)", p.FEN(), m, MoveString(e), d, uint16(d), uint16(m))
		}
	}
}

func TestMoveRoundTripPositions(t *testing.T) {
	n, castles, promos, eps := 0, 0, 0, 0
	for _, fen := range roundTripFENs {
		p := mustFEN(t, fen)
		depth := 2
		if fen == board.StartFEN {
			depth = 3
		}
		walk(p, depth, func(p *board.Position, moves []board.Move) {
			checkRoundTrip(t, p, moves)
			n += len(moves)
			for _, m := range moves {
				switch m.Kind() {
				case board.MoveCastling:
					castles++
				case board.MovePromotion:
					promos++
				case board.MoveEnPassant:
					eps++
				}
			}
		})
	}
	if castles == 0 || promos == 0 || eps == 0 {
		t.Errorf("coverage: %d castles, %d promotions, %d en passant", castles, promos, eps)
	}
	t.Logf("%d moves: %d castles, %d promotions, %d en passant", n, castles, promos, eps)
}

// roundTrips checks the round trip on every position of real games.
type roundTrips struct {
	t     *testing.T
	games int
}

func (s *roundTrips) game(g *pgn.Game) error {
	s.games++
	p := g.Start
	var buf [board.MaxMoves]board.Move
	for _, m := range g.Moves {
		checkRoundTrip(s.t, &p, p.LegalMoves(buf[:0]))
		p.Play(m)
	}
	return nil
}

func TestMoveRoundTripGames(t *testing.T) {
	f, err := os.Open("../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := &roundTrips{t: t}
	if err := pgn.Read(f, ingest.NewReplayer("champions500.pgn", ingest.SinkFunc(s.game))); err != nil {
		t.Fatal(err)
	}
	if s.games < 400 {
		t.Errorf("only %d games", s.games)
	}
}

// bookMove builds a book move from UCI-like text ("e1h1", "f2g1n").
func bookMove(t testing.TB, s string) uint16 {
	t.Helper()
	from, err1 := board.ParseSquare(s[:2])
	to, err2 := board.ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		t.Fatalf("bad move %q", s)
	}
	m := uint16(to) | uint16(from)<<6
	if len(s) == 5 {
		m |= uint16(strings.IndexByte(" nbrq", s[4])) << 12
	}
	return m
}

func TestDecodeMove(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		want      string // board move as UCI, or "" for an error
		castling  bool
		errText   string
	}{
		// King-takes-rook castling with the right: castling.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1", true, ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", "e1c1", true, ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8h8", "e8g8", true, ""},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8a8", "e8c8", true, ""},
		// The king's own two-square move is accepted as castling too.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1g1", true, ""},
		// Without the right: an ordinary (here illegal) king move.
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1h1", "", false, "not legal"},
		// With the right but blocked: castling, not legal now.
		{board.StartFEN, "e1h1", "", false, "not legal"},
		// The other side's castling.
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e8h8", "", false, "not legal"},
		// A rook on e1: e1h1 and e1g1 are ordinary moves.
		{"k7/8/8/8/8/8/6K1/4R3 w - - 0 1", "e1h1", "e1h1", false, ""},
		{"k7/8/8/8/8/8/6K1/4R3 w - - 0 1", "e1g1", "e1g1", false, ""},
		// Promotions 1..4 = n, b, r, q.
		{"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "f2g1n", "f2g1n", false, ""},
		{"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "f2g1b", "f2g1b", false, ""},
		{"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "f2g1r", "f2g1r", false, ""},
		{"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "f2g1q", "f2g1q", false, ""},
		{"rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "f2g1", "", false, "without a promotion piece"},
		// En passant.
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "e5f6", false, ""},
		// Not moves.
		{board.StartFEN, "e2e2", "", false, "from == to"},
		{board.StartFEN, "e2e5", "", false, "not legal"},
		{board.StartFEN, "e7e5", "", false, "not legal"},
	} {
		p := mustFEN(t, c.fen)
		m, err := DecodeMove(p, bookMove(t, c.move))
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), c.errText) || !strings.Contains(err.Error(), c.move) || !strings.Contains(err.Error(), c.fen) {
				t.Errorf("%s %s: got %v, %v; want error %q naming move and position", c.fen, c.move, m, err, c.errText)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.fen, c.move, err)
			continue
		}
		if m.String() != c.want || (m.Kind() == board.MoveCastling) != c.castling || !p.IsLegal(m) {
			t.Errorf("%s %s: got %s (kind %d), want %s castling=%v", c.fen, c.move, m, m.Kind()>>14, c.want, c.castling)
		}
	}
	// Promotion codes 5..7 and bit 15.
	p := board.StartPosition()
	for _, code := range []uint16{5, 6, 7, 8, 15} {
		m := bookMove(t, "e2e4") | code<<12
		if _, err := DecodeMove(&p, m); err == nil || !strings.Contains(err.Error(), "promotion code") {
			t.Errorf("code %d: %v", code, err)
		}
	}
}

func TestEncodeMove(t *testing.T) {
	p := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for _, c := range []struct {
		m    board.Move
		p    *board.Position
		want string
	}{
		{board.NewMove(board.E1, board.G1) | board.MoveCastling, nil, "e1h1"},
		{board.NewMove(board.E1, board.C1) | board.MoveCastling, nil, "e1a1"},
		{board.NewMove(board.E8, board.G8) | board.MoveCastling, nil, "e8h8"},
		{board.NewMove(board.E8, board.C8) | board.MoveCastling, nil, "e8a8"},
		// A castling built as a plain move: the position tells.
		{board.NewMove(board.E1, board.G1), p, "e1h1"},
		{board.NewMove(board.E1, board.G1), nil, "e1g1"},
		{board.NewMove(board.E2, board.E4), nil, "e2e4"},
		{board.NewPromotion(board.F2, board.G1, board.Knight), nil, "f2g1n"},
		{board.NewPromotion(board.A7, board.A8, board.Queen), nil, "a7a8q"},
		{board.NewPromotion(board.A7, board.B8, board.Rook), nil, "a7b8r"},
		{board.NewPromotion(board.H2, board.H1, board.Bishop), nil, "h2h1b"},
	} {
		if got := MoveString(EncodeMove(c.p, c.m)); got != c.want {
			t.Errorf("EncodeMove(%s) = %s, want %s", c.m, got, c.want)
		}
	}
	// The layout: to | from<<6 | promo<<12.
	if got := EncodeMove(nil, board.NewPromotion(board.F2, board.G1, board.Knight)); got != 6|13<<6|1<<12 {
		t.Errorf("f2g1n = %#04x", got)
	}
}

func TestMoveString(t *testing.T) {
	for m, want := range map[uint16]string{
		0:                  "a1a1",
		7 | 4<<6:           "e1h1",
		63 | 55<<6 | 4<<12: "h7h8q",
		63 | 55<<6 | 5<<12: "h7h8?",
	} {
		if got := MoveString(m); got != want {
			t.Errorf("MoveString(%#04x) = %s, want %s", m, got, want)
		}
	}
	if MoveFrom(7|4<<6) != board.E1 || MoveTo(7|4<<6) != board.H1 || MovePromotion(1<<12) != board.Knight || MovePromotion(5<<12) != board.NoPieceType {
		t.Error("MoveFrom/MoveTo/MovePromotion")
	}
}
