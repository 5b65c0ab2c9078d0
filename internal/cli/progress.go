package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// ProgressModes are the values of -progress.
var ProgressModes = []string{"auto", "bar", "lines", "none"}

// ProgressFlags defines -progress and -q on fs, the same way in every
// command that can run for more than a second; quietWhat says what -q
// silences besides the progress ("" for nothing more). Mode returns the
// display mode they ask for.
func ProgressFlags(fs *flag.FlagSet, quietWhat string) *ProgressOptions {
	o := &ProgressOptions{}
	EnumVar(fs, &o.mode, "progress", "auto", "the progress display on stderr, `MODE`: auto (a bar on a terminal, a line every 5 seconds to a file or pipe), bar, lines or none", ProgressModes...)
	q := "no progress output"
	if quietWhat != "" {
		q = "quiet: no progress output, " + quietWhat + "; only errors and warnings"
	}
	fs.BoolVar(&o.Quiet, "q", false, q)
	return o
}

// ProgressOptions are the values of -progress and -q.
type ProgressOptions struct {
	mode  string
	Quiet bool // -q
}

// Mode returns the display mode: none with -q.
func (o *ProgressOptions) Mode() string {
	if o.Quiet {
		return "none"
	}
	return o.mode
}

// showAfter is how long work runs before its progress is shown: work
// done sooner prints nothing.
const showAfter = time.Second

// linesEvery is how often the lines display prints a line.
const linesEvery = 5 * time.Second

// Progress shows the progress of long work on stderr: a bar on a
// terminal, a plain line every few seconds otherwise, or nothing. Work
// that ends within a second shows nothing. Its methods may be called from
// several goroutines.
type Progress struct {
	mu     sync.Mutex
	mode   string // bar, lines or none
	w      io.Writer
	start  time.Time
	last   time.Time // the last line printed (lines)
	shown  bool      // something was printed
	bar    *progressbar.ProgressBar
	barKey string        // what the bar shows: the input's index, or the count's name
	after  time.Duration // how long the work runs before it is shown
	note   string        // shown after the input's counts (SetNote)
}

// SetNote sets what the input's progress shows after its counts, such as
// "12000 committed"; "" shows nothing.
func (p *Progress) SetNote(note string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.note = note
}

// NewProgress returns the display of mode (one of ProgressModes) on w.
// auto is a bar when w is a terminal, lines when it is another file (a
// log, a pipe), and nothing for any other writer; it shows nothing of work
// done within a second. bar and lines show everything.
func NewProgress(mode string, w io.Writer) *Progress {
	var after time.Duration
	if mode == "auto" {
		after = showAfter
		mode = "none"
		if f, ok := w.(*os.File); ok {
			mode = "lines"
			if term.IsTerminal(int(f.Fd())) {
				mode = "bar"
			}
		}
	}
	now := time.Now()
	return &Progress{mode: mode, w: w, start: now, last: now.Add(-linesEvery), after: after}
}

// due reports whether the work has run long enough to be shown.
func (p *Progress) due() bool {
	return p.mode != "none" && (p.shown || time.Since(p.start) >= p.after)
}

// Input shows an ingest pipeline's progress: the input being read, its
// bytes read, the games and their rate.
func (p *Progress) Input(pr ingest.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.due() {
		return
	}
	rate := float64(pr.Games) / max(time.Since(p.start).Seconds(), 1e-9)
	switch p.mode {
	case "bar":
		if key := fmt.Sprint(pr.FileIndex); p.bar == nil || p.barKey != key {
			p.endBar(true)
			p.newBar(key, pr.Size, true)
		}
		note := ""
		if p.note != "" {
			note = ", " + p.note
		}
		p.bar.Describe(fmt.Sprintf("%s %d games %.0f/s%s", pr.File, pr.Games, rate, note))
		_ = p.bar.Set64(pr.Read)
	case "lines":
		if !p.lineDue() {
			return
		}
		pct := ""
		if pr.Size > 0 {
			pct = fmt.Sprintf(" %.1f%%", 100*float64(pr.Read)/float64(pr.Size))
		}
		note := ""
		if p.note != "" {
			note = ", " + p.note
		}
		p.printf("%s:%s %d games, %d plies, %.0f games/s%s\n", pr.File, pct, pr.Games, pr.Plies, rate, note)
	}
}

// Count shows how far a step of work is: done of total things (total 0 or
// less: not known), what naming them ("games replayed"). A new what ends
// the step before, as done.
func (p *Progress) Count(what string, done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.due() {
		return
	}
	switch p.mode {
	case "bar":
		if p.bar == nil || p.barKey != what {
			p.endBar(true)
			p.newBar(what, total, false)
			p.bar.Describe(what)
		}
		_ = p.bar.Set64(done)
	case "lines":
		if !p.lineDue() {
			return
		}
		if total > 0 {
			p.printf("%s: %d of %d (%.1f%%), %.0fs\n", what, done, total, 100*float64(done)/float64(total), time.Since(p.start).Seconds())
		} else {
			p.printf("%s: %d, %.0fs\n", what, done, time.Since(p.start).Seconds())
		}
	}
}

// Line ends the bar, as done, and prints a line of text, once the work
// has run long enough to be shown.
func (p *Progress) Line(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.due() {
		return
	}
	p.endBar(true)
	p.printf("%s\n", text)
}

// End ends the display with the work's outcome: done (err nil: the bar at
// its end, and "done in" if anything was shown), interrupted (err is or
// wraps context.Canceled: the bar stays where it was; the caller says
// "interrupted") or failed (the bar stays where it was).
func (p *Progress) End(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == "none" {
		return
	}
	p.endBar(err == nil)
	if err == nil && p.shown {
		p.printf("done in %.1fs\n", time.Since(p.start).Seconds())
	}
}

// Interrupted reports whether err is an interruption: the context's
// cancellation (Ctrl-C, SIGTERM).
func Interrupted(err error) bool { return errors.Is(err, context.Canceled) }

func (p *Progress) lineDue() bool {
	if time.Since(p.last) < linesEvery {
		return false
	}
	p.last = time.Now()
	return true
}

func (p *Progress) printf(format string, args ...any) {
	p.shown = true
	fmt.Fprintf(p.w, format, args...)
}

// newBar starts a bar of max units (bytes when bytes is set; max <= 0: not
// known).
func (p *Progress) newBar(key string, max int64, bytes bool) {
	if max <= 0 {
		max = -1
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(200 * time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowCount(),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	}
	p.bar = progressbar.NewOptions64(max, opts...)
	p.barKey = key
	p.shown = true
}

// endBar ends the bar, if any: at its end when done, else where it was.
func (p *Progress) endBar(done bool) {
	if p.bar == nil {
		return
	}
	if done {
		_ = p.bar.Finish()
	} else {
		_ = p.bar.Exit()
	}
	fmt.Fprintln(p.w)
	p.bar = nil
}
