// Command bookbuild reads PGN dumps (plain, .zst, .gz, .bz2 or stdin) and
// replays every game. With -db it will build the book store; without it,
// it replays the input and prints a summary (games, plies, skipped games
// by reason with file:line, speed).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/chessbook/chessbook/ingest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is the parsed command line.
type config struct {
	inputs   []string
	workers  int
	report   string
	quiet    bool
	progress string
}

func parseArgs(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bookbuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &config{}
	fs.IntVar(&c.workers, "workers", 0, "replay goroutines (0: one per CPU)")
	fs.StringVar(&c.report, "report", "", "write every skipped game's file:line: reason to this JSON file")
	fs.BoolVar(&c.quiet, "q", false, "no progress output")
	fs.StringVar(&c.progress, "progress", "auto", "progress display: auto (bar on a terminal, lines otherwise), bar, lines, none")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bookbuild [flags] INPUT...\n\nINPUT is a PGN file (plain, .zst, .gz or .bz2, detected by content) or - for stdin.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	c.inputs = fs.Args()
	if len(c.inputs) == 0 {
		fs.Usage()
		return nil, errors.New("no input given")
	}
	if c.quiet {
		c.progress = "none"
	}
	switch c.progress {
	case "auto", "bar", "lines", "none":
	default:
		return nil, fmt.Errorf("-progress %q: want auto, bar, lines or none", c.progress)
	}
	return c, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseArgs(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "bookbuild:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	prog := newProgress(c.progress, stderr)
	sum, err := ingest.Run(ctx, c.inputs, ingest.Options{Workers: c.workers, Progress: prog.update},
		func(int) ingest.Sink { return nullSink{} })
	prog.finish()
	if sum != nil {
		printSummary(stdout, sum)
		if c.report != "" {
			if werr := writeReport(c.report, sum); werr != nil {
				fmt.Fprintln(stderr, "bookbuild:", werr)
				return 1
			}
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "bookbuild:", err)
		return 1
	}
	return 0
}

// nullSink accepts every game; replay alone is the job until a store is given.
type nullSink struct{}

func (nullSink) Game(*ingest.Game) error { return nil }
func (nullSink) Skip(*ingest.GameError)  {}

func printSummary(w io.Writer, s *ingest.Summary) {
	secs := s.Elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	fmt.Fprintf(w, "games read:      %d\n", s.Games)
	fmt.Fprintf(w, "games ingested:  %d\n", s.Ingested)
	fmt.Fprintf(w, "games skipped:   %d\n", s.SkippedTotal())
	for r, n := range s.Skipped {
		if n > 0 {
			fmt.Fprintf(w, "  %-20s %d\n", ingest.SkipReason(r).String()+":", n)
		}
	}
	// A few examples of each reason, in input order.
	const perReason = 3
	var shown [16]int
	var listed int64
	for _, e := range s.Errors {
		if int(e.Reason) < len(shown) && shown[e.Reason] < perReason {
			shown[e.Reason]++
			listed++
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	if rest := s.SkippedTotal() - listed; rest > 0 {
		fmt.Fprintf(w, "  ... %d more (all of them with -report FILE.json)\n", rest)
	}
	fmt.Fprintf(w, "plies replayed:  %d\n", s.Plies)
	fmt.Fprintf(w, "input bytes:     %d\n", s.Bytes)
	fmt.Fprintf(w, "elapsed:         %.2fs\n", secs)
	fmt.Fprintf(w, "speed:           %.0f games/s, %.0f plies/s\n", float64(s.Games)/secs, float64(s.Plies)/secs)
}

// reportJSON is the shape of the -report file.
type reportJSON struct {
	Games    int64            `json:"games"`
	Ingested int64            `json:"ingested"`
	Plies    int64            `json:"plies"`
	Skipped  map[string]int64 `json:"skipped"`
	Errors   []errorJSON      `json:"errors"`
}

type errorJSON struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

func writeReport(path string, s *ingest.Summary) error {
	r := reportJSON{Games: s.Games, Ingested: s.Ingested, Plies: s.Plies, Skipped: map[string]int64{}, Errors: []errorJSON{}}
	for reason, n := range s.Skipped {
		if n > 0 {
			r.Skipped[ingest.SkipReason(reason).String()] = n
		}
	}
	for _, e := range s.Errors {
		r.Errors = append(r.Errors, errorJSON{File: e.File, Line: e.Line, Reason: e.Reason.String(), Detail: e.Detail})
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}
