package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/polyglot"
)

// The probe command: what a Polyglot book (any .bin, ours or not) holds for
// a position, and with -check whether the file is a sound book.

var probeCmd = &command{
	name:    "probe",
	args:    `-book BOOK.bin [-fen FEN] [-moves "e4 e5 Nf3"] [-json]  |  -book BOOK.bin -check [-json]`,
	summary: "list a Polyglot book's moves at a position (weights, shares, learn values), or validate the book with -check",
	run:     runProbe,
}

// probeJSON is probe's -json output for a position.
type probeJSON struct {
	Book   string `json:"book"`   // the book file, as given
	FEN    string `json:"fen"`    // the position probed
	Key    string `json:"key"`    // its Polyglot key, 16 hex digits
	Weight uint64 `json:"weight"` // the total weight of the moves listed
	// Moves are the book's moves, heaviest first (equal weights in file
	// order), as polyglot.Book.Probe gives them: weight-0 entries, moves
	// that are not legal in the position and the second entry of a move
	// are left out, and listed in Ignored.
	Moves   []probeMoveJSON   `json:"moves"`
	Ignored []ignoredJSON     `json:"ignored"`
	Opening *explorer.Opening `json:"opening"` // as in moves: null if unnamed
}

// probeMoveJSON is one move of probeJSON.
type probeMoveJSON struct {
	UCI     string  `json:"uci"`     // castling as the king's move, e1g1
	SAN     string  `json:"san"`     // "O-O"
	Entry   string  `json:"entry"`   // the move as the book writes it, e1h1 for O-O
	Weight  uint16  `json:"weight"`  // > 0
	Percent float64 `json:"percent"` // of the total weight, (0, 100]
	Learn   uint32  `json:"learn"`   // the entry's learn field
}

// ignoredJSON is an entry of the probed key that Probe does not list.
type ignoredJSON struct {
	Entry  string `json:"entry"` // the move as the book writes it
	Weight uint16 `json:"weight"`
	Learn  uint32 `json:"learn"`
	Reason string `json:"reason"`
}

// checkJSON is probe -check's -json output.
type checkJSON struct {
	Book     string        `json:"book"`
	Bytes    int           `json:"bytes"`
	Errors   int           `json:"errors"`   // findings of severity error
	Warnings int           `json:"warnings"` // and warning
	Findings []findingJSON `json:"findings"` // most serious first
}

// findingJSON is one polyglot.Finding.
type findingJSON struct {
	Severity string `json:"severity"` // error, warning or info
	Code     string `json:"code"`     // a polyglot.Code* constant: size, unsorted, castling ...
	Index    int    `json:"index"`    // the first entry concerned (0-based), -1 for none
	Count    int    `json:"count"`    // entries concerned (descents for unsorted), 0 when not applicable
	Message  string `json:"message"`
}

func runProbe(e *env, args []string) error {
	fs := e.flags()
	path := fs.String("book", "", "the Polyglot book (.bin) to read")
	fen := fs.String("fen", "", "the position in FEN (default: the start position)")
	moves := fs.String("moves", "", `moves to play from the position, in SAN or UCI ("e4 e5 Nf3", "e2e4 e7e5 g1f3", "1.e4 e5 2.Nf3")`)
	check := fs.Bool("check", false, "validate the book instead: size, key order, castling encoding, moves no piece can make, weight 0, duplicates, learn values, header; exit status 1 when it finds errors")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected arguments %q: give the book with -book BOOK.bin, the position with -fen \"FEN\" (quoted) and the moves with -moves \"e4 e5\" (quoted)", strings.Join(fs.Args(), " "))
	}
	if *path == "" {
		return badInput("no book given: use 'bookquery probe -book BOOK.bin ...'")
	}
	if *check {
		if *fen != "" || *moves != "" {
			return badInput("-check validates the whole book: give no -fen or -moves with it")
		}
		return runCheck(e, *path)
	}
	line, err := movesLine(*fen, *moves)
	if err != nil {
		return err
	}
	b, err := polyglot.OpenBook(*path) // its errors name the file
	if err != nil {
		return err
	}
	out := probeBook(b, line)
	out.Book = *path
	return e.emit(out, func(w io.Writer) error { return writeProbeText(w, out) })
}

// probeBook probes b at the last position of line and accounts for every
// entry of the position's key (see polyglot.Book.ProbeEntries).
func probeBook(b *polyglot.Book, line []board.Position) *probeJSON {
	p := line[len(line)-1]
	out := &probeJSON{FEN: p.FEN(), Key: fmt.Sprintf("%016x", polyglot.Key(&p)), Moves: []probeMoveJSON{}, Ignored: []ignoredJSON{}, Opening: explorer.OpeningOf(line)}
	moves, ignored := b.ProbeEntries(&p)
	for _, m := range moves {
		out.Moves = append(out.Moves, probeMoveJSON{
			UCI: m.Move.String(), SAN: p.SAN(m.Move), Entry: polyglot.MoveString(m.Entry.Move),
			Weight: m.Weight, Percent: m.Percent, Learn: m.Entry.Learn,
		})
		out.Weight += uint64(m.Weight)
	}
	for _, ig := range ignored {
		out.Ignored = append(out.Ignored, ignoredJSON{Entry: polyglot.MoveString(ig.Entry.Move), Weight: ig.Entry.Weight, Learn: ig.Entry.Learn, Reason: ig.Reason})
	}
	return out
}

// writeProbeText writes out as a table of the moves, then the entries left
// out, then the opening.
func writeProbeText(w io.Writer, out *probeJSON) error {
	var b strings.Builder
	fmt.Fprintf(&b, "book      %s\nposition  %s\nkey       %s\n", out.Book, out.FEN, out.Key)
	if len(out.Moves) == 0 {
		b.WriteString("the book has no moves for this position\n")
	} else {
		rows := [][]string{{"move", "uci", "entry", "weight", "share", "learn"}}
		for _, m := range out.Moves {
			rows = append(rows, []string{m.SAN, m.UCI, m.Entry, fmt.Sprint(m.Weight), fmt.Sprintf("%.1f%%", m.Percent), fmt.Sprint(m.Learn)})
		}
		rows = append(rows, []string{"total", "", "", fmt.Sprint(out.Weight), "100.0%", ""})
		writeTable(&b, rows, 3)
	}
	for _, ig := range out.Ignored {
		fmt.Fprintf(&b, "ignored: %s weight %d learn %d: %s\n", ig.Entry, ig.Weight, ig.Learn, ig.Reason)
	}
	writeOpening(&b, out.FEN, out.Opening)
	_, err := io.WriteString(w, b.String())
	return err
}

// runCheck validates the book file at path and prints the findings. A book
// with findings of severity error makes the command fail (exit status 1),
// as does a file that is not a book at all, after the findings are printed.
func runCheck(e *env, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading book: %w", err) // *PathError names the file
	}
	out := checkJSON{Book: path, Bytes: len(data), Findings: []findingJSON{}}
	for _, f := range polyglot.CheckBytes(data) {
		switch f.Severity {
		case polyglot.Error:
			out.Errors++
		case polyglot.Warning:
			out.Warnings++
		}
		out.Findings = append(out.Findings, findingJSON{Severity: f.Severity.String(), Code: f.Code, Index: f.Index, Count: f.Count, Message: f.Message})
	}
	err = e.emit(out, func(w io.Writer) error {
		var b strings.Builder
		fmt.Fprintf(&b, "book %s (%d bytes)\n", out.Book, out.Bytes)
		for _, f := range out.Findings {
			fmt.Fprintf(&b, "%s: %s\n", f.Severity, f.Message)
		}
		fmt.Fprintf(&b, "%s, %s\n", plural(out.Errors, "error", "errors"), plural(out.Warnings, "warning", "warnings"))
		_, err := io.WriteString(w, b.String())
		return err
	})
	if err != nil {
		return err
	}
	if out.Errors > 0 {
		return fmt.Errorf("%s: %s: not a sound Polyglot book", path, plural(out.Errors, "error", "errors"))
	}
	return nil
}

// plural returns "1 error", "2 errors" and the like.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
