package board

// realGames holds the movetext (SAN, move numbers removed) of real games,
// 2021 FIDE World Cup round 3.3 (the PGN fixture 0007.pgn of
// github.com/notnil/chess), used by tests and benchmarks.
var realGames = []string{
	// Giri,A - Abdusattorov,Nodirbek, 0-1
	"e4 e6 d4 d5 Nd2 c5 Ngf3 Nc6 exd5 exd5 Bb5 Qe7+ Be2 Qc7 dxc5 Bxc5 Nb3 Bb6 O-O Nge7 Nfd4 O-O " +
		"Be3 a6 Nxc6 bxc6 Bxb6 Qxb6 Qd4 Qxd4 Nxd4 Rb8 Nb3 Bf5 Rfc1 a5 Rab1 a4 Nc5 Ra8 Bd3 Ra5 Bxf5 " +
		"Nxf5 Nd7 Re8 c4 d4 b4 axb3 axb3 Ra2 Nc5 Ree2 Nd3 Nd6 Ra1 Ne4 Rxa2 Rxa2 Re1 f5 g4 Ng5 Kg2 " +
		"fxg4 Kg3 Nf3 Re7 Rd2 Nf4 d3 Re3 h5 Nxh5 Rd1 Kxg4 Nxh2+ Kf4 d2 Rd3 Nf1",
	// Mamedyarov,S - Martirosyan,Haik M., 0-1
	"c4 e5 Nc3 Nf6 e3 Bb4 Nge2 c6 d4 exd4 Qxd4 O-O a3 Be7 g4 d6 g5 Nfd7 f4 Nc5 Qd1 a5 Nd4 a4 h4 " +
		"Re8 Bg2 Nbd7 O-O Bf8 Qe2 Qb6 Rb1 Nb3 Nc2 Ndc5 Kh2 Be6 e4 Qa6 Ne3 Na5 f5 Bxc4 Nxc4 Nxc4 Rd1 " +
		"d5 Bf4 Rad8 Rd4 Nb3 Rd3 d4 Rbd1 Bd6 Bxd6 Nxd6 Qc2 Qc4 Qf2 dxc3 Rxc3 Nxe4 Rxd8 Rxd8 Qf4 Qd4 " +
		"Qxe4 Qxe4 Bxe4 Rd4 Bc2 Na5 Kh3 Kf8 f6 gxf6 gxf6 Rf4 Kg3 Rxf6 Bxa4 b5 Bc2 h6 b4 Nb7 a4 bxa4 " +
		"Bxa4 Nd8 b5 cxb5 Bxb5 Ne6 Bd7 Nd4 Bg4 Kg7 Rc4 Nc6 Re4 Rd6 Bh5 Rd3+ Kg2 Rd5 Bf3 Ne5 Re2 Ra5 " +
		"Be4 Ra3 Bf5 Kf6 Rf2 Re3 Bb1+ Kg7 Bf5 Rc3 Re2 Nc4 Rf2 Ne3+ Kh2 Rc4 Kg3 Rc3 Kh2 Rc5 Bh3 Kg6 " +
		"Rf3 Re5 Kg3 f5 Bf1 Kf6 Bh3 Nd5 Ra3 Re3+ Rxe3 Nxe3 Kf3 Nd5 Bf1 Ke5 Bc4 Nb4 Bb5 Nc2 Be8 Nd4+ " +
		"Ke3 f4+ Kf2 Nf5 h5 Nd4 Bg6 Kf6 Be8 Kg5 Bg6 Kg4 Be8 Nc2 Bg6 Nb4 Be8 Nd3+ Ke2 Ne5 Kf2 f3 Ke3 " +
		"Kg3 Ke4 Nc4",
	// Vachier Lagrave,M - Paravyan,D, 1-0
	"e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5 Ndb5 d6 Nd5 Nxd5 exd5 Ne7 c4 Ng6 Qa4 Bd7 Qb4 Bf5 h4 " +
		"a6 Nc3 Be7 h5 Nf4 Qa4+ b5 cxb5 O-O Bxf4 axb5 Qb4 exf4 Qxf4 Bd7 Be2 b4 Qxb4 Rb8 Nb5 Bf6 a4 " +
		"Re8 Kf1 Qe7 Re1 Be5 g3 Qf6 Kg2 Red8 b3 Bxb5 Bxb5 Bc3 Qc4 Bxe1 Rxe1 Rdc8 Bc6 Qb2 Re3 Qd2 " +
		"Qf4 Qc2 b4 h6 b5 Qc5 Re4 Rd8 Qe3 Qc2 a5 Qd1 a6 f5 Re7 f4 Qf3 Qa1 a7 Rbc8 b6 fxg3 Qxg3",
	// Vakhidov,J - Ponkratov,P, 0-1
	"c4 Nf6 Nc3 e5 Nf3 Nc6 e4 Bb4 d3 d6 a3 Bxc3+ bxc3 O-O g3 Nd7 Bg2 a6 a4 Nc5 Nh4 Na5 Be3 Bd7 " +
		"O-O b5 axb5 axb5 cxb5 Bxb5 c4 Bd7 Nf5 Kh8 f4 exf4 Rxf4 Nc6 Rxa8 Qxa8 d4 Qa3 Bc1 Qd3 Qh5 " +
		"Bxf5 exf5 Nxd4 Bf1 Qc3 f6 g6 Qh6 Nce6 Rf2 Nf5 Qd2 Qxd2 Bxd2 h5 Bd3 Nfd4 Be4 Rb8 Kg2 Kg8 h3 " +
		"Nc5 Bxg6 fxg6 f7+ Kg7 f8=Q+ Rxf8 Bh6+ Kxh6 Rxf8 Kg7 Rf1 Nd7 Ra1 Kf6 Ra7 Ne6",
	// Adhiban,Baskaran - Vidit,S, 1/2-1/2
	"e4 e5 Bc4 Nf6 d3 c6 Nf3 d5 Bb3 a5 a4 Bb4+ c3 Bd6 exd5 Nxd5 Nbd2 O-O Ne4 Bc7 O-O Bg4 h3 Bh5 " +
		"Ng3 Bg6 Re1 Nd7 d4 exd4 Bxd5 cxd5 Qxd4 Re8 Rxe8+ Qxe8 Qxd5 Bxg3 fxg3 Be4 Qd1 Nc5 Nd4 Rd8 " +
		"Bf4 Ne6 Be3 Rd6 Qg4 Nxd4 Bxd4 Rg6 Qf4 Bc6 Kh2 h6 Rf1 Bxa4 Ra1 Bc6 Rxa5 Qe2 Qf2 Qxf2 Bxf2 " +
		"Re6 Kg1 Re2 b4 Rc2 Rc5 Rc1+ Kh2 Rc2 Kg1 Rc1+ Kh2",
}
