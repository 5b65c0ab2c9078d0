package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/chessbook/chessbook/book"
	"github.com/chessbook/chessbook/ingest"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a pipeline's progress on stderr: a bar on a terminal,
// a plain line every few seconds otherwise, or nothing.
type progress struct {
	mode  string
	w     io.Writer
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	file  int
	last  time.Time
	start time.Time
	// readDone is set once the reading's final counts are shown;
	// phaseStart is when the current phase began.
	readDone   bool
	phaseStart time.Time
}

func newProgress(mode string, w io.Writer) *progress {
	if mode == "auto" {
		mode = "lines"
		if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			mode = "bar"
		}
	}
	return &progress{mode: mode, w: w, file: -1, start: time.Now()}
}

func (p *progress) update(pr ingest.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start).Seconds()
	rate := float64(pr.Games) / max(elapsed, 1e-9)
	switch p.mode {
	case "bar":
		if p.bar == nil || pr.FileIndex != p.file {
			if p.bar != nil {
				_ = p.bar.Finish()
			}
			p.file = pr.FileIndex
			p.bar = progressbar.NewOptions64(pr.Size,
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(pr.File),
				progressbar.OptionShowBytes(true),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionShowElapsedTimeOnFinish(),
				progressbar.OptionSetPredictTime(true),
			)
		}
		p.bar.Describe(fmt.Sprintf("%s %d games %.0f/s", pr.File, pr.Games, rate))
		_ = p.bar.Set64(pr.Read)
	case "lines":
		if time.Since(p.last) < 5*time.Second {
			return
		}
		p.last = time.Now()
		pct := ""
		if pr.Size > 0 {
			pct = fmt.Sprintf(" %.1f%%", 100*float64(pr.Read)/float64(pr.Size))
		}
		fmt.Fprintf(p.w, "%s:%s %d games, %d plies, %.0f games/s\n", pr.File, pct, pr.Games, pr.Plies, rate)
	}
}

// phase shows a build's phase after the reading: the reading's final
// counts first (the bar at its end, a last line), then what the build does
// now, so that no phase passes in silence.
func (p *progress) phase(ph book.Phase, sum *ingest.Summary) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == "none" {
		return
	}
	if ph == book.PhaseWrite && !p.readDone {
		p.readDone = true
		if p.bar != nil {
			_ = p.bar.Finish()
			fmt.Fprintln(p.w)
			p.bar = nil
		}
		if sum != nil {
			fmt.Fprintf(p.w, "read %d games, %d plies in %.1fs\n", sum.Games, sum.Plies, time.Since(p.start).Seconds())
		}
	}
	p.phaseStart = time.Now()
	fmt.Fprintf(p.w, "%s...\n", ph)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
	}
	if p.mode != "none" && p.readDone {
		fmt.Fprintf(p.w, "done in %.1fs\n", time.Since(p.start).Seconds())
	}
}
