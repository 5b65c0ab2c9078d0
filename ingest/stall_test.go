package ingest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chessbook/chessbook/ingest"
	"github.com/chessbook/chessbook/pgn"
)

// TestRunCancelStalledInput: an input that stops sending without ending (a
// pipe whose writer stalls) must not delay a cancellation: Run returns at
// once with context.Canceled, the games read so far counted.
func TestRunCancelStalledInput(t *testing.T) {
	games500, err := os.ReadFile("../testdata/champions500.pgn")
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "stalled.pgn")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	writerDone := make(chan struct{})
	release := make(chan struct{})
	go func() {
		defer close(writerDone)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer w.Close()
		w.Write(games500) // every game, then nothing more until the test ends
		<-release
	}()
	defer func() { close(release); <-writerDone }()

	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	games := 0
	type result struct {
		sum *ingest.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := ingest.Run(ctx, []string{fifo}, ingest.Options{Workers: 2},
			func(int) ingest.Sink {
				return ingest.SinkFunc(func(*pgn.Game) error { mu.Lock(); games++; mu.Unlock(); return nil })
			})
		done <- result{sum, err}
	}()
	// Wait until the games before the last one are read (the last is held
	// back: it may go on when more input comes).
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := games
		mu.Unlock()
		if n >= 400 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d games read from the pipe", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t0 := time.Now()
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", r.err)
		}
		if r.sum == nil || r.sum.Games < 400 || r.sum.Bytes == 0 {
			t.Errorf("summary %+v: want the games and bytes read so far", r.sum)
		}
		t.Logf("Run returned %v after the cancellation", time.Since(t0))
	case <-time.After(3 * time.Second):
		t.Fatal("Run still waits for the stalled input 3 s after the cancellation")
	}
}
