// Command measure prints the key-size figures of the key format: the real
// keys (package keys) on the evaluation corpus, all plies and plies <= 40,
// and what each refinement of the Huffman scheme saves.
//
// The refinement table is computed by modelling: each variant of the scheme
// is described by the symbols it codes, its Huffman tables are trained on
// the training corpus (corpus.TrainingFiles, the same files and rules as
// keys/internal/gentables) and its key sizes are counted on the evaluation
// corpus (corpus.EvalFile, the world champions' games), so all figures are
// out-of-sample. The last step of the chain is the real format: its modelled
// sizes must equal the sizes of the real keys, which the tool checks.
//
//	go run ./keys/internal/measure            # about a minute
//	go run ./keys/internal/measure -variants=false
package main

import (
	"flag"
	"fmt"
	"log"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/huffman"
	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/keys/internal/corpus"
	"github.com/chessbook/chessbook/multitable"
)

// sizes accumulates key sizes in bytes.
type sizes struct {
	n, n40       int
	sum, sum40   int
	max, max40   int
	hist         [keys.MaxLen + 16]int
	maxFEN       string
	perPlyBucket [4]struct{ n, sum int } // plies 0-20, 21-40, 41-80, >80
}

func (s *sizes) add(b, ply int, p *board.Position) {
	s.n++
	s.sum += b
	if b > s.max {
		s.max = b
		s.maxFEN = p.FEN()
	}
	if ply <= 40 {
		s.n40++
		s.sum40 += b
		s.max40 = max(s.max40, b)
	}
	if b < len(s.hist) {
		s.hist[b]++
	}
	k := 3
	switch {
	case ply <= 20:
		k = 0
	case ply <= 40:
		k = 1
	case ply <= 80:
		k = 2
	}
	s.perPlyBucket[k].n++
	s.perPlyBucket[k].sum += b
}

func (s *sizes) merge(o *sizes) {
	s.n += o.n
	s.n40 += o.n40
	s.sum += o.sum
	s.sum40 += o.sum40
	if o.max > s.max {
		s.max = o.max
		s.maxFEN = o.maxFEN
	}
	s.max40 = max(s.max40, o.max40)
	for i := range s.hist {
		s.hist[i] += o.hist[i]
	}
	for i := range s.perPlyBucket {
		s.perPlyBucket[i].n += o.perPlyBucket[i].n
		s.perPlyBucket[i].sum += o.perPlyBucket[i].sum
	}
}

func (s *sizes) mean() float64   { return float64(s.sum) / float64(max(s.n, 1)) }
func (s *sizes) mean40() float64 { return float64(s.sum40) / float64(max(s.n40, 1)) }

// forEach replays the files (relative to data) and calls fn for every
// position with its ply, from several goroutines; each goroutine gets its
// own state from newState, and the states are returned for merging.
func forEach[S any](data string, files []string, newState func() S, fn func(S, *board.Position, int)) []S {
	// Every state ever made is kept in states (a pool may drop its items,
	// never the states slice).
	var mu sync.Mutex
	var states []S
	pool := sync.Pool{New: func() any {
		s := newState()
		mu.Lock()
		states = append(states, s)
		mu.Unlock()
		return s
	}}
	for _, f := range files {
		err := corpus.Replay(filepath.Join(data, f), 0, func(g corpus.Game) {
			s := pool.Get().(S)
			for i := range g.Positions {
				fn(s, &g.Positions[i], i)
			}
			pool.Put(s)
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	return states
}

func main() {
	data := flag.String("data", testutil.FindSharedData(), "shared data directory (default: ../shared/data beside the module root)")
	eval := flag.String("eval", corpus.EvalFile, "evaluation corpus, relative to -data")
	variants := flag.Bool("variants", true, "also model the refinement chain and the rejected alternatives")
	only := flag.String("only", "", "model only the alternatives whose name contains this (and the final format)")
	flag.Parse()
	if *data == "" {
		log.Fatal("measure: ../shared/data not found beside the module root; use -data")
	}

	fmt.Printf("# Key sizes on %s\n\n", *eval)
	t0 := time.Now()
	real := realSizes(*data, *eval)
	encNS, encN := encodeThroughput(*data, *eval)
	printReal(real, encNS, encN)
	log.Printf("measure: real keys done in %v", time.Since(t0))
	if !*variants {
		return
	}
	final := printChain(*data, *eval, *only, real, t0)
	printAlternatives(*data, *eval, *only, final, t0)
}

// realSizes returns the sizes of the real keys (package keys) of every
// position of the evaluation corpus.
func realSizes(data, eval string) *sizes {
	states := forEach(data, []string{eval}, func() *sizes { return &sizes{} }, func(s *sizes, p *board.Position, ply int) {
		var buf [keys.MaxLen]byte
		s.add(len(keys.Append(buf[:0], p)), ply, p)
	})
	var real sizes
	for _, s := range states {
		real.merge(s)
	}
	return &real
}

// encodeThroughput returns the best of 5 single-threaded encoding times
// over the first 200,000 or so positions of the evaluation corpus, and
// their number.
func encodeThroughput(data, eval string) (time.Duration, int) {
	var ps []board.Position
	_ = corpus.Replay(filepath.Join(data, eval), 1, func(g corpus.Game) {
		if len(ps) < 200000 {
			ps = append(ps, g.Positions...)
		}
	})
	var buf [keys.MaxLen]byte
	best := time.Duration(1 << 62)
	for rep := 0; rep < 5; rep++ {
		t := time.Now()
		for i := range ps {
			keys.Append(buf[:0], &ps[i])
		}
		best = min(best, time.Since(t))
	}
	return best, len(ps)
}

// printReal prints the real keys' figures: sizes, by ply, histogram,
// longest key and encoding throughput.
func printReal(real *sizes, encNS time.Duration, encN int) {
	fmt.Printf("Real keys (package keys): %d positions, %d of them at plies <= 40.\n\n", real.n, real.n40)
	fmt.Printf("| | mean bytes | max bytes |\n|---|---|---|\n")
	fmt.Printf("| all plies | %.3f | %d |\n| plies <= 40 | %.3f | %d |\n\n", real.mean(), real.max, real.mean40(), real.max40)
	fmt.Printf("By ply: ")
	for i, name := range []string{"0-20", "21-40", "41-80", ">80"} {
		b := real.perPlyBucket[i]
		fmt.Printf("%s %.2f  ", name, float64(b.sum)/float64(max(b.n, 1)))
	}
	fmt.Printf("\n\nSize histogram (bytes: positions): ")
	for b, n := range real.hist {
		if n > 0 {
			fmt.Printf("%d:%d ", b, n)
		}
	}
	fmt.Printf("\n\nLongest key (%d bytes): %s\n\n", real.max, real.maxFEN)
	fmt.Printf("Encode throughput (one goroutine, best of 5 over %d positions): %.1f ns/key, %.1f M keys/s\n\n",
		encN, float64(encNS.Nanoseconds())/float64(max(encN, 1)), float64(encN)/encNS.Seconds()/1e6)
}

// printChain models and prints the refinement chain (only its last step,
// the real format, when only is set), checks that the last step's sizes
// are the real keys' and returns them.
func printChain(data, eval, only string, real *sizes, t0 time.Time) sizes {
	fmt.Printf("## Refinement chain (modelled; tables trained on corpus.TrainingFiles, sizes on %s)\n\n", filepath.Base(eval))
	fmt.Printf("| step | mean all | max all | mean <=40 | max <=40 | saves (all) | saves (<=40) |\n|---|---|---|---|---|---|---|\n")
	var prev *sizes
	var final sizes
	steps := chain()
	if only != "" {
		steps = steps[len(steps)-1:]
	}
	for i, v := range steps {
		s := model(data, eval, v)
		save, save40 := "", ""
		if prev != nil {
			save = fmt.Sprintf("%.3f", prev.mean()-s.mean())
			save40 = fmt.Sprintf("%.3f", prev.mean40()-s.mean40())
		}
		fmt.Printf("| %d. %s | %.3f | %d | %.3f | %d | %s | %s |\n", i, v.name, s.mean(), s.max, s.mean40(), s.max40, save, save40)
		prev = s
		final = *s
		log.Printf("measure: %s done (%v)", v.name, time.Since(t0))
	}
	same := final.sum == real.sum && final.max == real.max && final.hist == real.hist
	fmt.Printf("\nThe last step models the real format: identical sizes to the real keys: %v\n\n", same)
	if !same {
		fmt.Fprintf(os.Stderr, "measure: modelled final %d bytes, real %d bytes\n", final.sum, real.sum)
	}
	return final
}

// printAlternatives models and prints the rejected alternatives whose
// name contains only, each against the final format's sizes.
func printAlternatives(data, eval, only string, final sizes, t0 time.Time) {
	fmt.Printf("## Alternatives tried and rejected (each applied to the final format)\n\n")
	fmt.Printf("| alternative | mean all | max all | mean <=40 | max <=40 | change (all) | change (<=40) |\n|---|---|---|---|---|---|---|\n")
	for _, v := range alternatives() {
		if !strings.Contains(v.name, only) {
			continue
		}
		s := model(data, eval, v)
		fmt.Printf("| %s | %.3f | %d | %.3f | %d | %+.3f | %+.3f |\n", v.name, s.mean(), s.max, s.mean40(), s.max40, s.mean()-final.mean(), s.mean40()-final.mean40())
		log.Printf("measure: %s done (%v)", v.name, time.Since(t0))
	}
}

// variant describes one coding scheme for the model.
type variant struct {
	name        string
	multi       bool // category byte: rooks at home, castling and kings implied
	kings       int  // 0 in the scan as pieces, 1 six-bit squares, 2 Huffman squares
	pieces      int  // 0 seed's fixed code, 1 one trained table, 2 one table per square
	runs        int  // 0 an empty symbol per square, 2 one trained run table, 3 one per square
	joint       bool // piece on the cursor square in the run table (the real format)
	legalEP     bool // en-passant field only when legal captures exist (else flag + 3 bits)
	colorCounts bool // men per colour coded, colour-exhausted tables
	noPawnTabs  bool // a flag bit, and other tables when there are no pawns
	stmCtx      bool // tables per side to move
	phaseCtx    bool // tables per "any castling right left"
	stmInCat    bool // side to move in the category byte (no stm bit)
	kingSyms    bool // king symbols in every table (one table set for all categories)
}

func chain() []variant {
	v := variant{name: "seed Huffman code on 64 squares (empty 0, pawn 10c, B/N/R 1100c.., Q/K 6 bits), castling 4 bits, ep flag + 3 bits"}
	out := []variant{v}
	v.multi, v.name = true, "+ multitable: category byte, rooks at home, castling, kings (25 categories) implied"
	out = append(out, v)
	v.kings, v.name = 1, "+ king squares as 6-bit coordinates, kings out of the scan, 5-bit queen"
	out = append(out, v)
	v.legalEP, v.name = true, "+ en-passant field only when a legal capture exists"
	out = append(out, v)
	v.pieces, v.name = 1, "+ Huffman piece code trained on real games"
	out = append(out, v)
	v.runs, v.name = 2, "+ empty-run codes (trained run-length table)"
	out = append(out, v)
	v.pieces, v.runs, v.name = 2, 3, "+ one table per square for runs and pieces"
	out = append(out, v)
	v.joint, v.name = true, "+ piece on the cursor square coded in the run table (Square / Landing codes)"
	out = append(out, v)
	v.kings, v.name = 2, "+ Huffman-coded king squares = this format"
	out = append(out, v)
	return out
}

func alternatives() []variant {
	base := chain()[len(chain())-1]
	var out []variant
	add := func(name string, f func(*variant)) {
		v := base
		v.name = name
		f(&v)
		out = append(out, v)
	}
	add("colour counts (seed): men per colour coded, tables switch when a colour is exhausted", func(v *variant) { v.colorCounts = true })
	add("no-pawn tables (seed): flag bit + tables without pawns", func(v *variant) { v.noPawnTabs = true })
	add("tables per side to move", func(v *variant) { v.stmCtx = true })
	add("tables per phase (any castling right left or not): twice the tables", func(v *variant) { v.phaseCtx = true })
	add("side to move in the category byte (values 0..161)", func(v *variant) { v.stmInCat = true })
	add("kings in the scan as pieces (other tables when a king is in the scan)", func(v *variant) { v.kings = 0 })
	add("kings in the scan as pieces (one table set)", func(v *variant) { v.kings, v.kingSyms = 0, true })
	add("kings as 6-bit coordinates", func(v *variant) { v.kings = 1 })
	add("runs and pieces in separate per-square codes (no joint symbol)", func(v *variant) { v.joint = false })
	add("per-square run tables only (one piece table)", func(v *variant) { v.joint, v.pieces = false, 1 })
	return out
}

// Table kinds of the model.
const (
	kSquare  = iota // joint: piece on the cursor square or run (real Square code)
	kLanding        // piece after a run (real Landing code)
	kKing           // king square per colour
	kRun            // run length (0 allowed) of the separate models
	kPiece          // piece (or empty, when runs are not coded) of the separate models
	kCount          // men per colour
)

type tableID struct {
	kind, ctx, sq int // sq: the square the table belongs to, -1 for none
	emptySym      bool
	kingSym       bool
}

// emitter collects the symbols of one position.
type emitter struct {
	ev []struct {
		t   tableID
		sym int
	}
	fixed int
}

func (e *emitter) emit(t tableID, sym int) {
	e.ev = append(e.ev, struct {
		t   tableID
		sym int
	}{t, sym})
}

// seedLen is the seed's fixed code: empty 0, pawn 10c, bishop 1100c, knight
// 1101c, rook 1110c, queen 11110c, king 11111c; the queen is 1111c once
// both kings are out of the scan.
func seedLen(pc board.Piece, kingsOut bool) int {
	switch pc.Type() {
	case board.NoPieceType:
		return 1
	case board.Pawn:
		return 3
	case board.Knight, board.Bishop, board.Rook:
		return 5
	case board.Queen:
		if kingsOut {
			return 5
		}
		return 6
	}
	return 6
}

// walk emits the symbols of p under variant v.
func (v *variant) walk(p *board.Position, e *emitter) {
	e.ev = e.ev[:0]
	e.fixed = 0
	w := walker{v: v, p: p, e: e, kingsOut: true}
	w.header()
	w.kings()
	w.colorCounts()
	if v.runs == 0 {
		w.squares()
	} else {
		w.runs()
	}
	w.enPassant()
	if v.kingSyms {
		for i := range e.ev {
			if k := e.ev[i].t.kind; k == kSquare || k == kLanding || k == kPiece {
				e.ev[i].t.kingSym = true
			}
		}
	}
}

// walker is the state of one walk: the squares left out of the scan, the
// context offset and the men of each colour left to scan.
type walker struct {
	v            *variant
	p            *board.Position
	e            *emitter
	skip         board.Bitboard
	im           multitable.Implied
	ctxOff       int
	kingsOut     bool // both kings are out of the scan
	leftW, leftB int
}

// header counts the fixed bits of the category and the side to move and
// sets the context offset.
func (w *walker) header() {
	v, p, e := w.v, w.p, w.e
	if v.multi {
		w.im = multitable.Implies(multitable.Category(p))
		w.skip = w.im.Skip
	} else {
		e.fixed += 4
	}
	if !(v.stmInCat && v.multi) {
		e.fixed++
	}
	if v.stmCtx {
		w.ctxOff += 64 * int(p.SideToMove())
	}
	if v.phaseCtx && p.Castling() != 0 {
		w.ctxOff += 128
	}
	if v.noPawnTabs {
		e.fixed++
		if p.ByType(board.Pawn) == 0 {
			w.ctxOff += 256
		}
	}
}

// kings codes the kings that are out of the scan.
func (w *walker) kings() {
	v := w.v
	for c := board.White; c <= board.Black; c++ {
		k := w.p.KingSquare(c)
		switch {
		case v.multi && w.im.KingImplied(c):
		case v.kings == 1:
			w.e.fixed += 6
		case v.kings == 2:
			w.e.emit(tableID{kind: kKing, ctx: int(c), sq: -1}, int(k))
		default:
			w.kingsOut = false
			continue
		}
		w.skip |= k.Bitboard()
	}
}

// colorCounts codes the number of men of each colour left to scan.
func (w *walker) colorCounts() {
	if !w.v.colorCounts {
		return
	}
	w.leftW = (w.p.ByColor(board.White) &^ w.skip).Count()
	w.leftB = (w.p.ByColor(board.Black) &^ w.skip).Count()
	w.e.emit(tableID{kind: kCount, ctx: 0, sq: -1}, w.leftW)
	w.e.emit(tableID{kind: kCount, ctx: 1, sq: -1}, w.leftB)
}

// colCtx is the context of a colour that has no men left to scan.
func (w *walker) colCtx() int {
	if !w.v.colorCounts {
		return 0
	}
	switch {
	case w.leftW == 0:
		return 512
	case w.leftB == 0:
		return 1024
	}
	return 0
}

// piece codes pc on square s.
func (w *walker) piece(s int, pc board.Piece, empty bool) {
	if w.v.pieces == 0 {
		w.e.fixed += seedLen(pc, w.kingsOut)
		return
	}
	t := tableID{kind: kPiece, sq: -1, emptySym: empty, kingSym: !w.kingsOut}
	if w.v.pieces == 2 {
		t.sq = s
		t.ctx = s
	}
	t.ctx += w.ctxOff + w.colCtx()
	w.e.emit(t, int(pc))
}

// count counts pc as scanned.
func (w *walker) count(pc board.Piece) {
	if pc.Color() == board.White {
		w.leftW--
	} else {
		w.leftB--
	}
}

// squares codes every square of the scan, empty ones too.
func (w *walker) squares() {
	for s := 0; s < 64; s++ {
		if w.skip.Has(board.Square(s)) {
			continue
		}
		pc := w.p.PieceAt(board.Square(s))
		w.piece(s, pc, true)
		if pc != board.NoPiece {
			w.count(pc)
		}
	}
}

// runTable is the table of a run of empty squares that starts at start.
func (w *walker) runTable(start int) tableID {
	t := tableID{kind: kRun, sq: -1}
	if w.v.joint {
		t.kind = kSquare
	}
	if w.v.runs == 3 {
		t.sq, t.ctx = start, start
	}
	t.ctx += w.ctxOff + w.colCtx()
	t.kingSym = !w.kingsOut
	return t
}

// runs codes the scan as runs of empty squares, each followed by the man
// that ends it.
func (w *walker) runs() {
	v, p, e := w.v, w.p, w.e
	rest := uint64(^w.skip)
	occ := uint64(p.Occupied() &^ w.skip)
	for occ != 0 {
		s := bits.TrailingZeros64(occ)
		occ &= occ - 1
		start := bits.TrailingZeros64(rest)
		pc := p.PieceAt(board.Square(s))
		g := bits.OnesCount64(rest & (1<<uint(s) - 1))
		switch {
		case v.joint && g == 0:
			e.emit(w.runTable(start), int(pc))
		case v.joint:
			e.emit(w.runTable(start), keys.RunBase+g)
			e.emit(tableID{kind: kLanding, sq: s, ctx: s + w.ctxOff + w.colCtx(), kingSym: !w.kingsOut}, int(pc))
		default:
			e.emit(w.runTable(start), keys.RunBase+g)
			w.piece(s, pc, false)
		}
		w.count(pc)
		rest &^= 1<<uint(s)<<1 - 1
	}
	if rest != 0 {
		start := bits.TrailingZeros64(rest)
		e.emit(w.runTable(start), keys.RunBase+bits.OnesCount64(rest))
	}
}

// enPassant counts the fixed bits of the en-passant square.
func (w *walker) enPassant() {
	if w.v.legalEP {
		if n := legalEPCount(w.p); n > 0 {
			w.e.fixed += bits.Len(uint(n))
		}
		return
	}
	w.e.fixed++
	if w.p.LegalEPSquare() != board.NoSquare {
		w.e.fixed += 3
	}
}

// legalEPCount counts the squares an en-passant capture would be legal on,
// given the board (the real format's candidate rule).
func legalEPCount(p *board.Position) int {
	occ := p.Occupied()
	var c board.Bitboard
	dir := board.Square(8)
	if p.SideToMove() == board.White {
		ours := p.Pieces(board.White, board.Pawn) & board.Rank5
		c = p.Pieces(board.Black, board.Pawn) & board.Rank5
		c &= (ours<<1)&^board.FileA | (ours>>1)&^board.FileH
		c &^= occ>>8 | occ>>16
	} else {
		ours := p.Pieces(board.Black, board.Pawn) & board.Rank4
		c = p.Pieces(board.White, board.Pawn) & board.Rank4
		c &= (ours<<1)&^board.FileA | (ours>>1)&^board.FileH
		c &^= occ<<8 | occ<<16
	}
	n := 0
	q := *p
	for c != 0 {
		s := c.PopLSB()
		ep := s + dir
		if p.SideToMove() == board.Black {
			ep = s - dir
		}
		q.SetEPSquare(ep)
		if q.LegalEPSquare() == ep {
			n++
		}
	}
	return n
}

// allowed reports whether sym gets a pseudo-count in table t (so that every
// symbol a valid position can need has a code), following gentables.
func (t tableID) allowed(sym int) bool {
	pieceOK := func(sym int) bool {
		pc := board.Piece(sym)
		if sym == 0 || !pc.Valid() {
			return false
		}
		if pc.Type() == board.King {
			return t.kingSym
		}
		if pc.Type() == board.Pawn && t.sq >= 0 {
			r := t.sq / 8
			return r != 0 && r != 7
		}
		return true
	}
	maxRun := 63
	if t.sq >= 0 {
		maxRun = 64 - t.sq
	}
	switch t.kind {
	case kSquare:
		if sym >= keys.RunBase {
			g := sym - keys.RunBase
			return g >= 1 && g <= maxRun
		}
		return pieceOK(sym)
	case kLanding:
		return sym < keys.RunBase && pieceOK(sym)
	case kKing:
		return sym < 64
	case kRun:
		g := sym - keys.RunBase
		return g >= 0 && g <= maxRun
	case kPiece:
		if sym == 0 {
			return t.emptySym
		}
		return sym < keys.RunBase && pieceOK(sym)
	case kCount:
		return sym <= 16
	}
	return false
}

const alphabet = keys.RunBase + 64 + 1

// model trains v's tables on the training corpus and returns its key sizes
// on the evaluation corpus.
func model(data, eval string, v variant) *sizes {
	type counts map[tableID]*[alphabet]uint64
	states := forEach(data, corpus.TrainingFiles(), func() counts { return counts{} }, func(c counts, p *board.Position, _ int) {
		var e emitter
		v.walk(p, &e)
		for _, x := range e.ev {
			a := c[x.t]
			if a == nil {
				a = new([alphabet]uint64)
				c[x.t] = a
			}
			a[x.sym]++
		}
	})
	total := counts{}
	for _, c := range states {
		for t, a := range c {
			b := total[t]
			if b == nil {
				b = new([alphabet]uint64)
				total[t] = b
			}
			for i := range a {
				b[i] += a[i]
			}
		}
	}
	var mu sync.Mutex
	lens := map[tableID][]uint8{}
	lengthsOf := func(t tableID) []uint8 {
		mu.Lock()
		defer mu.Unlock()
		if l, ok := lens[t]; ok {
			return l
		}
		var f [alphabet]uint64
		if a := total[t]; a != nil {
			f = *a
		}
		for i := range f {
			if t.allowed(i) {
				f[i]++
			} else {
				f[i] = 0
			}
		}
		l, err := huffman.BuildLengths(f[:], huffman.MaxCodeLen)
		if err != nil {
			log.Fatal(err)
		}
		lens[t] = l
		return l
	}
	type evalState struct {
		s sizes
		e emitter
	}
	es := forEach(data, []string{eval}, func() *evalState { return &evalState{} }, func(st *evalState, p *board.Position, ply int) {
		v.walk(p, &st.e)
		b := st.e.fixed
		for _, x := range st.e.ev {
			l := lengthsOf(x.t)[x.sym]
			if l == 0 {
				log.Fatalf("measure: %s: symbol %d of table %+v has no code (%s)", v.name, x.sym, x.t, p.FEN())
			}
			b += int(l)
		}
		n := (b + 7) / 8
		if v.multi {
			n++
		}
		st.s.add(n, ply, p)
	})
	var out sizes
	for _, s := range es {
		out.merge(&s.s)
	}
	return &out
}
