package savings

import (
	"math"
	"time"
)

// Report is the outcome of a measurement: every encoding's sizes, the
// sizes on disk, the hash collisions and the seeds' claims checked. It is
// what the text, Markdown and JSON outputs print.
type Report struct {
	Source    string   `json:"source"` // "pgn" or "store"
	Inputs    []string `json:"inputs"` // the PGN files, or the store directory
	Weighting string   `json:"weighting"`
	BandKind  BandKind `json:"band_kind"`
	Bands     []string `json:"bands"`

	Games          uint64 `json:"games"`           // games measured (PGN), or in the store
	SkippedGames   int64  `json:"skipped_games"`   // games that could not be replayed (PGN)
	DuplicateGames uint64 `json:"duplicate_games"` // copies of games skipped (PGN)
	Positions      uint64 `json:"position_samples"`
	Moves          uint64 `json:"move_samples"`
	Distinct       uint64 `json:"distinct_positions"`
	Entries        uint64 `json:"position_move_entries"`
	GamecodeN      uint64 `json:"gamecode_games"` // games measured with gamecode

	// StoreBytes, PGNBytes and PGNZstdBytes (a store's report) are the
	// store's size on disk, its games written as PGN and that PGN under
	// zstd -3: what the summary (Summarize) compares.
	StoreBytes   int64 `json:"store_bytes,omitempty"`
	PGNBytes     int64 `json:"pgn_bytes,omitempty"`
	PGNZstdBytes int64 `json:"pgn_zstd_bytes,omitempty"`

	PositionRows []Row     `json:"positions"`
	MoveRows     []Row     `json:"moves"`
	Disk         []DiskRow `json:"disk"`
	Hashes       []HashRow `json:"hashes"`
	Claims       []Claim   `json:"seed_claims"`
	Notes        []string  `json:"notes"`

	EPCandidatesMax int     `json:"ep_candidates_max"` // most en-passant candidates seen in one position
	EPCandidatesFEN string  `json:"ep_candidates_fen"`
	LegalMovesMax   int     `json:"legal_moves_max"`
	LegalMovesFEN   string  `json:"legal_moves_fen"`
	ElapsedSeconds  float64 `json:"elapsed_seconds"`
}

// Row is one encoding's figures.
type Row struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Seed     string `json:"seed"`
	Keeps    string `json:"keeps,omitempty"`
	Lossless bool   `json:"lossless"`
	Unit     string `json:"unit"` // what a sample is
	All      Stat   `json:"all"`
	Bands    []Stat `json:"bands,omitempty"`
	// Unrepresentable counts the samples the encoding cannot write
	// (left out of the figures).
	Unrepresentable uint64  `json:"unrepresentable"`
	MaxFEN          string  `json:"max_fen,omitempty"`        // a position of maximal size
	TotalOnly       bool    `json:"total_only,omitempty"`     // only the mean is known (All.Mean)
	BytesPerGame    float64 `json:"bytes_per_game,omitempty"` // moves: mean bytes per game
	Note            string  `json:"note,omitempty"`
}

// DiskRow is one way of keeping the corpus, in bytes, with its size per
// distinct position, per position-move entry, per game and per move (0:
// not applicable).
type DiskRow struct {
	What        string  `json:"what"`
	Bytes       float64 `json:"bytes"`
	PerPosition float64 `json:"bytes_per_distinct_position,omitempty"`
	PerEntry    float64 `json:"bytes_per_entry,omitempty"`
	PerGame     float64 `json:"bytes_per_game,omitempty"`
	BitsPerMove float64 `json:"bits_per_move,omitempty"`
	Note        string  `json:"note,omitempty"`
}

// HashRow reports the collisions of a lossy hash over the distinct
// positions: Positions distinct positions gave Values distinct hash
// values; Collisions = Positions - Values; Expected is the birthday
// estimate n(n-1)/2^(bits+1).
type HashRow struct {
	ID         string   `json:"id"`
	Bits       int      `json:"bits"`
	Positions  uint64   `json:"positions"`
	Values     uint64   `json:"values"`
	Collisions uint64   `json:"collisions"`
	Expected   float64  `json:"expected"`
	Examples   []string `json:"examples,omitempty"` // FENs of colliding positions, " = " between them
}

// Claim is one figure of a seed checked against the implementation.
type Claim struct {
	Seed     string `json:"seed"`
	Claim    string `json:"claim"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Verdict  string `json:"verdict"` // holds, does not hold, corrected, ...
	Note     string `json:"note,omitempty"`
}

// The verdicts of a Claim.
const (
	Holds     = "holds"
	NotHolds  = "does not hold"
	Corrected = "holds once corrected"
)

// moveCodeInfo describes the move and game codes.
var moveCodeInfo = [numMoveCodes]struct{ id, name, seed, note string }{
	mvSAN:        {"san", "SAN text + separator byte", "002", ""},
	mvFromTo:     {"fromto", "12-bit from/to (+2 for a promotion)", "002", ""},
	mvLegalIndex: {"legalindex", "legal-move index, fixed width ceil(log2 n)", "002", ""},
	mvLegalRadix: {"legalradix", "legal-move index, variable base (log2 n)", "002", "one number per game: the game rounds up once"},
}

var gameCodeInfo = [numGameCodes]struct{ id, name, seed, note string }{
	gmGamecode: {"gamecode", "the store's game code (gamecode, indexed moves, tags removed)", "ours", "record: version, result, start, ply count, moves; bookbuild's default; median over moves of each game's mean"},
	gmRanked:   {"gamecode-ranked", "the store's game code with ranked moves (bookbuild -game-coding ranked)", "ours", "as gamecode, each move coded by the move model; median over moves of each game's mean"},
	gmZstdGame: {"zstd-game", "zstd of each game's SAN text", "002", "one zstd frame per game (default level, no checksum); median over moves of each game's mean"},
}

// build turns the merged accumulator into a report (without the disk,
// hash and claim parts, which the drivers add).
func (a *accumulator) build() *Report {
	r := &Report{
		BandKind:        a.bands,
		Bands:           bandNames(a.bands),
		Positions:       a.positions,
		Moves:           a.moves,
		EPCandidatesMax: a.epCandMax,
		EPCandidatesFEN: a.epCandFEN,
		LegalMovesMax:   a.legalMax,
		LegalMovesFEN:   a.legalFEN,
	}
	for i, e := range positionEncodings() {
		row := Row{ID: e.ID, Name: e.Name, Seed: e.Seed, Keeps: string(e.Keeps), Lossless: e.Lossless(),
			Unit: "bits per position", Unrepresentable: a.posUnrep[i], MaxFEN: a.maxFEN[i]}
		row.All, row.Bands = bandStats(&a.pos[i])
		r.PositionRows = append(r.PositionRows, row)
	}
	for i, info := range moveCodeInfo {
		row := Row{ID: info.id, Name: info.name, Seed: info.seed, Lossless: true, Unit: "bits per move", Note: info.note}
		row.All, row.Bands = bandStats(&a.mov[i])
		if a.games > 0 {
			row.BytesPerGame = row.All.Mean * float64(row.All.Count) / 8 / float64(a.games)
		}
		r.MoveRows = append(r.MoveRows, row)
	}
	if a.perGame != nil {
		for i, info := range gameCodeInfo {
			row := Row{ID: info.id, Name: info.name, Seed: info.seed, Lossless: true, Unit: "bits per move (per game)",
				Note: info.note, Unrepresentable: a.gameFail[i]}
			row.All = a.game[i].Stat()
			n := a.games - a.gameFail[i]
			if i == gmGamecode || i == gmRanked {
				n = a.gamecodeGames
			}
			if n > 0 {
				row.BytesPerGame = a.gameBits[i] / 8 / float64(n)
			}
			r.MoveRows = append(r.MoveRows, row)
		}
		r.GamecodeN = a.gamecodeGames
		if a.plies() > 0 {
			bpm := 8 * float64(a.streamOut.n) / float64(a.plies())
			r.MoveRows = append(r.MoveRows, Row{ID: "zstd-stream", Name: "zstd of all the SAN text, one stream per worker", Seed: "002",
				Lossless: true, Unit: "bits per move (total)", All: Stat{Count: a.plies(), Mean: bpm}, TotalOnly: true,
				BytesPerGame: float64(a.streamOut.n) / float64(a.games), Note: "whole corpus: only the mean exists"})
		}
	}
	return r
}

// plies returns the plies of the games measured.
func (a *accumulator) plies() uint64 { return a.gamePlies }

// bandStats summarises a band array and the bands merged.
func bandStats(ds *[numBands]dist) (Stat, []Stat) {
	all := dist{Scale: ds[0].Scale}
	bands := make([]Stat, numBands)
	for b := range ds {
		all.Merge(&ds[b])
		bands[b] = ds[b].Stat()
	}
	return all.Stat(), bands
}

// row returns the report's row with id, or nil.
func (r *Report) row(id string) *Row {
	for i := range r.PositionRows {
		if r.PositionRows[i].ID == id {
			return &r.PositionRows[i]
		}
	}
	for i := range r.MoveRows {
		if r.MoveRows[i].ID == id {
			return &r.MoveRows[i]
		}
	}
	return nil
}

// hashRows reports the collisions of the 64-bit Polyglot key and of the
// 128-bit hash among n distinct positions.
func hashRows(n, c64, c128 uint64, examples [][2]string) []HashRow {
	birthday := func(bits int) float64 {
		f := float64(n)
		return f * (f - 1) / 2 / math.Pow(2, float64(bits))
	}
	z64 := HashRow{ID: "zobrist64", Bits: 64, Positions: n, Values: n - c64, Collisions: c64, Expected: birthday(64)}
	for _, e := range examples {
		z64.Examples = append(z64.Examples, e[0]+" = "+e[1])
	}
	h128 := HashRow{ID: "hash128", Bits: 128, Positions: n, Values: n - c128, Collisions: c128, Expected: birthday(128)}
	return []HashRow{z64, h128}
}

// elapsed records the run time.
func (r *Report) elapsed(start time.Time) { r.ElapsedSeconds = time.Since(start).Seconds() }
