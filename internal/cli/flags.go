// Package cli holds what both commands, bookbuild and bookquery, do the
// same way with their command lines: flags anywhere among the arguments,
// one-line errors with a "did you mean" for mistyped flags and names,
// flags with a fixed set of values, and the progress display on stderr.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Parse parses args with fs, taking flags anywhere among the positional
// arguments ("bookbuild FILE -db DIR" as well as "bookbuild -db DIR
// FILE"); "--" ends the flags, so that a positional argument may start
// with a dash. Afterwards fs.Args() holds the positional arguments, in
// their order. A lone "-" (standard input) is a positional argument.
//
// Parse prints nothing on an error: an unknown flag is an
// *UnknownFlagError, which suggests the nearest flag of fs, and the
// caller prints it in one line. On -h or -help it calls fs.Usage and
// returns flag.ErrHelp.
func Parse(fs *flag.FlagSet, args []string) error {
	return ParseHinted(fs, args, nil)
}

// ParseHinted is Parse with hints for unknown flags: hints maps the name
// of a flag fs does not have (without the dash) to what to say instead of
// a suggestion, as for a flag the other command has.
func ParseHinted(fs *flag.FlagSet, args []string, hints map[string]string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := parse(fs, args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fs.PrintDefaults()
		}
	case err != nil:
		return Explain(fs, err, hints)
	}
	return err
}

func parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// UnknownFlagError is Parse's error for a flag the command does not have.
type UnknownFlagError struct {
	Name    string // as given, without the dash
	Suggest string // the nearest flag's name, "" if none is near
	Hint    string // what to say instead of a suggestion, or ""
}

// Error implements error: "unknown flag -spede (did you mean -speeds?)".
func (e *UnknownFlagError) Error() string {
	switch {
	case e.Hint != "":
		return fmt.Sprintf("unknown flag -%s (%s)", e.Name, e.Hint)
	case e.Suggest != "":
		return fmt.Sprintf("unknown flag -%s (did you mean -%s?)", e.Name, e.Suggest)
	}
	return fmt.Sprintf("unknown flag -%s", e.Name)
}

// Explain turns the error of fs.Parse for an undefined flag into an
// *UnknownFlagError, with a hint from hints or the nearest flag of fs;
// other errors (a bad value, a missing argument) are returned as they
// are: they name the flag already. For callers of fs.Parse itself.
func Explain(fs *flag.FlagSet, err error, hints map[string]string) error {
	const undefined = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return err
	}
	name := strings.TrimPrefix(msg[len(undefined):], "-")
	e := &UnknownFlagError{Name: name, Hint: hints[name]}
	if e.Hint == "" {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		e.Suggest = Nearest(name, names)
	}
	return e
}

// Nearest returns the word of words nearest to s, for a "did you mean":
// the only word that s is a prefix of, or the one at the smallest edit
// distance (letters added, dropped, changed or swapped) when that is at
// most a third of its length (one edit for short words); "" if none is
// near enough.
func Nearest(s string, words []string) string {
	if s == "" {
		return ""
	}
	var prefixed []string
	for _, w := range words {
		if strings.HasPrefix(w, s) {
			prefixed = append(prefixed, w)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	best, bestD := "", 0
	for _, w := range words {
		d := distance(strings.ToLower(s), strings.ToLower(w))
		if limit := max(1, len(w)/3); d <= limit && (best == "" || d < bestD) {
			best, bestD = w, d
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b: the
// fewest letters inserted, deleted, changed or swapped with their
// neighbour to turn a into b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j]: the distance between ra[:i] and rb[:j], three rows kept.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Enum is a flag.Value that takes one of a fixed set of values: any other
// is refused when the flag is parsed, with the values it takes.
type Enum struct {
	p       *string
	allowed []string
}

// EnumVar defines a flag of fs with the name, default value and usage
// that takes only the allowed values, stored in *p. Write the usage with
// a placeholder in back quotes ("the output `FORMAT`: ...") for the
// help to name the value.
func EnumVar(fs *flag.FlagSet, p *string, name, value, usage string, allowed ...string) {
	*p = value
	fs.Var(&Enum{p: p, allowed: allowed}, name, usage)
}

// String implements flag.Value.
func (e *Enum) String() string {
	if e == nil || e.p == nil {
		return ""
	}
	return *e.p
}

// Set implements flag.Value.
func (e *Enum) Set(v string) error {
	if !slices.Contains(e.allowed, v) {
		return fmt.Errorf("want %s", OneOf(e.allowed))
	}
	*e.p = v
	return nil
}

// OneOf lists words as "a, b or c".
func OneOf(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
