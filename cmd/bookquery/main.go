// Command bookquery looks things up in a chess opening book.
//
//	bookquery [-db DIR] <command> [flags] [arguments]
//
// Commands:
//
//	encode   the position key of a position (-fen FEN, -moves "e4 e5 Nf3")
//	decode   the position (FEN) of position keys given as hex or URL-safe text
//	moves    the moves played from a position, their results and the opening (-db DIR)
//	history  the games through a position by month (-db DIR)
//	games    the top and recent games through a position, or every one a page at a time (-db DIR)
//	pgn      every game through a position, as PGN (-db DIR)
//	game     stored games by id (-db DIR)
//	players  the spellings of a player's name, with their games (-db DIR)
//	search   games by player, event, site, result, ECO, date, rating, length and position (-db DIR)
//	player   a player's opening tree with one color at a position (-db DIR)
//	probe    a Polyglot book's moves at a position (-book BOOK.bin), or its validation (-check)
//	serve    an HTTP JSON API over the store, the lichess explorer's: GET /lichess?fen=FEN&play=e2e4,e7e5 (-db DIR)
//	savings  every encoding of the seeds measured on the store, next to its size on disk (-db DIR)
//
// Every command but pgn (which writes PGN) and serve (which answers HTTP)
// takes -json for machine-readable output. The exit status is 0 on
// success, 1 for a runtime or I/O error, 2 for bad usage or bad input (an
// unknown command or flag, a bad FEN, move or key) and 130 when
// interrupted; errors go to standard error as "bookquery: <command>:
// <reason>".
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/chessbook/chessbook/explorer"
	"github.com/chessbook/chessbook/internal/cli"
	"github.com/chessbook/chessbook/store"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand of bookquery.
type command struct {
	name    string
	args    string // synopsis of the flags and arguments, for the usage text
	summary string // one line for the command list
	// run parses args (the arguments after the command name) with the
	// FlagSet made by env.flags and does the work. An error wrapped by
	// badInput, or matching explorer.ErrBadInput, means bad usage or bad
	// input (exit status 2); any other
	// error is a runtime error (exit status 1).
	run func(e *env, args []string) error
}

// commands are the implemented commands, in the order usage lists them.
var commands = []*command{encodeCmd, decodeCmd, movesCmd, historyCmd, gamesCmd, pgnCmd, gameCmd, playersCmd, searchCmd, playerCmd, positionsCmd, exportCmd, probeCmd, serveCmd, savingsCmd, checkCmd}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// env is what a command runs with: the global flags and the output streams.
type env struct {
	db             string // -db: the book store directory ("" if not given)
	stdout, stderr io.Writer
	cmd            *command
	json           bool // the command's -json flag
	// build is set when a build was in progress on the store when the
	// command opened it: what to say (explorer.BuildNote), on stderr, or
	// after the error when the command fails.
	build *string
}

// noJSON are the commands without -json, and what to say to a -json
// given to them.
var noJSON = map[string]string{
	"pgn":   "pgn writes PGN; 'games -page N -json' lists the games as JSON",
	"serve": "serve answers JSON over HTTP (and the page at /); -json is for the other commands",
}

// flags returns a FlagSet for the command with -db and, but for the
// commands of noJSON, -json. The FlagSet prints nothing itself: parse
// errors are reported by run like every other error, and -h prints the
// command's usage.
func (e *env) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("bookquery "+e.cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if _, ok := noJSON[e.cmd.name]; !ok {
		fs.BoolVar(&e.json, "json", false, "print JSON (one object per line) instead of text")
	}
	fs.StringVar(&e.db, "db", e.db, "the book store directory (before or after the command's name)")
	return fs
}

// flagHints answer flags that the store commands do not have and
// bookbuild, or an older bookquery, has.
var flagHints = map[string]string{
	"min-rating": "bookquery filters on the players' mean rating by band: -ratings 2000,2200,2500 for a mean of 2000 and up",
}

// parse parses args with fs (flags before, between or after the
// arguments: see cli.Parse), turning flag errors into bad-usage errors.
func (e *env) parse(fs *flag.FlagSet, args []string) error {
	hints := map[string]string{"json": noJSON[e.cmd.name]}
	for name, h := range flagHints {
		if fs.Lookup(name) == nil && fs.Lookup("ratings") != nil {
			hints[name] = h
		}
	}
	fs.Usage = func() { e.usage(fs) }
	err := cli.ParseHinted(fs, args, hints)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return err
	default:
		return &inputError{err: err, help: true}
	}
}

// progressFlags defines -progress and -q on fs (see cli.ProgressFlags).
func (e *env) progressFlags(fs *flag.FlagSet, quietWhat string) *cli.ProgressOptions {
	return cli.ProgressFlags(fs, quietWhat)
}

// usage prints the command's usage and flags to stderr.
func (e *env) usage(fs *flag.FlagSet) {
	fmt.Fprintf(e.stderr, "usage: bookquery [-db DIR] %s %s\n\n%s\n\nflags:\n", e.cmd.name, e.cmd.args, e.cmd.summary)
	fs.SetOutput(e.stderr)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// emit prints v as one line of JSON with -json, else calls text.
func (e *env) emit(v any, text func(w io.Writer) error) error {
	if e.json {
		if err := json.NewEncoder(e.stdout).Encode(v); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		return nil
	}
	if err := text(e.stdout); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// inputError marks an error as the user's: bad usage or bad input, exit
// status 2. With help, run says where the help is.
type inputError struct {
	err  error
	help bool
}

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// buildError is a command's error on a store a build is writing: its
// message says so (a name the store has no game of yet, say).
type buildError struct {
	err  error
	note string
}

func (e *buildError) Error() string { return fmt.Sprintf("%v; %s", e.err, e.note) }
func (e *buildError) Unwrap() error { return e.err }

// badInput returns an inputError formatted as by fmt.Errorf.
func badInput(format string, args ...any) error {
	return &inputError{err: fmt.Errorf(format, args...)}
}

// run runs bookquery with args (without the program name) and returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bookquery", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	db := fs.String("db", "", "the book store directory (for the store commands; encode and decode do not need it)")
	version := fs.Bool("version", false, "print the version (module, VCS revision, Go) and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stderr, fs)
			return 0
		}
		hint := "the command's flags go after its name: bookquery -db DIR <command> [flags]"
		err = cli.Explain(fs, err, map[string]string{"json": hint, "fen": hint, "moves": hint, "q": hint, "progress": hint})
		fmt.Fprintf(stderr, "bookquery: %v\nrun 'bookquery -h' for help\n", err)
		return 2
	}
	if *version {
		fmt.Fprintln(stdout, cli.Version("bookquery"))
		return 0
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "bookquery: no command given")
		usage(stderr, fs)
		return 2
	}
	name := fs.Arg(0)
	c := lookup(name)
	if c == nil {
		msg := fmt.Sprintf("unknown command %q", name)
		if near := cli.Nearest(name, commandList()); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		fmt.Fprintf(stderr, "bookquery: %s\ncommands: %s; run 'bookquery -h' for help\n", msg, commandNames())
		return 2
	}
	e := &env{db: *db, stdout: stdout, stderr: stderr, cmd: c}
	err := c.run(e, fs.Args()[1:])
	var in *inputError
	if e.build != nil && err != nil {
		err = &buildError{err: err, note: *e.build}
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		if e.build != nil {
			fmt.Fprintf(stderr, "bookquery: %s: note: %s: this answer is from those\n", c.name, *e.build)
		}
		return 0
	case errors.As(err, &in) && in.help:
		fmt.Fprintf(stderr, "bookquery: %s: %v\nrun 'bookquery %s -h' for help\n", c.name, err, c.name)
		return 2
	case errors.As(err, &in), errors.Is(err, explorer.ErrBadInput):
		fmt.Fprintf(stderr, "bookquery: %s: %v\n", c.name, err)
		return 2
	case cli.Interrupted(err):
		fmt.Fprintf(stderr, "bookquery: %s: interrupted\n", c.name)
		return 130
	default:
		msg := store.ErrorLine(err)
		if store.IsDamage(err) {
			msg += fmt.Sprintf(" (the store is damaged: 'bookquery -db %s check' lists what)", e.db)
		}
		fmt.Fprintf(stderr, "bookquery: %s: %s\n", c.name, msg)
		return 1
	}
}

// commandList returns the commands' names.
func commandList() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

func commandNames() string { return strings.Join(commandList(), ", ") }

// usage prints the program's usage: the commands and the global flags.
func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: bookquery [-db DIR] <command> [flags] [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nglobal flags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprintf(w, "\nEvery command but pgn (which writes PGN) and serve (which answers JSON over HTTP) takes -json.\n"+
		"The commands that read the whole store or its games (positions, export, pgn, games -page, check,\n"+
		"savings) show their progress on stderr (-progress auto|bar|lines|none, -q for none).\n"+
		"'bookquery <command> -h' shows its flags.\n"+
		"Exit status: 0 ok, 1 runtime or I/O error, 2 bad usage or bad input, 130 interrupted.\n")
}
