package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

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

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}
