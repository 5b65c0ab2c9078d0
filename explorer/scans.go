package explorer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/book"
)

// The game scans of the API: GET /games with page=N replays the stored
// games (book.GamesThrough), a second or more of every CPU on a large
// store, where the other requests take a millisecond; GET /search reads
// every game's summary, or the dictionary and posting lists of the names
// it is given (a tenth of a second to seconds: "a" names most games), and
// GET /players the whole dictionary. So the scans run in a bounded pool (HandlerOptions.Scans at once, as many again waiting twice
// over; more are answered 503 with Retry-After at once), each on a share
// of the CPUs that leaves one to the other requests, and each under a
// deadline (HandlerOptions.ScanTimeout, the wait included) and the
// request's context: a client that leaves stops its scan.

// DefaultScanTimeout bounds a scan and its wait for a place in the pool,
// under the 30 s in which 'bookquery serve' must write an answer.
const DefaultScanTimeout = 20 * time.Second

// errBusy is the pool's answer when every place, running and waiting, is
// taken.
var errBusy = errors.New("busy")

// scanPool admits the scans: slots are the scans running, tickets the
// scans running or waiting for a slot.
type scanPool struct {
	slots   chan struct{}
	tickets chan struct{}
	workers int // the replay goroutines of each scan
	timeout time.Duration
	last    atomic.Int64 // how long the last scan took, in nanoseconds
}

// newScanPool returns the pool opts asks for. The scans share the CPUs but
// one (GOMAXPROCS-1, at least 1): by default half as many scans as that at
// once, each on its share of them.
func newScanPool(opts HandlerOptions) *scanPool {
	cpus := max(1, runtime.GOMAXPROCS(0)-1)
	n := opts.Scans
	if n <= 0 {
		n = max(1, cpus/2)
	}
	p := &scanPool{slots: make(chan struct{}, n), tickets: make(chan struct{}, 3*n), workers: max(1, cpus/n), timeout: opts.ScanTimeout}
	if p.timeout <= 0 {
		p.timeout = DefaultScanTimeout
	}
	return p
}

// acquire takes a slot, waiting for one while ctx lasts, and returns the
// function that gives it back; errBusy when the queue is full.
func (p *scanPool) acquire(ctx context.Context) (func(), error) {
	select {
	case p.tickets <- struct{}{}:
	default:
		return nil, errBusy
	}
	select {
	case p.slots <- struct{}{}:
		return func() { <-p.slots; <-p.tickets }, nil
	case <-ctx.Done():
		<-p.tickets
		return nil, ctx.Err()
	}
}

// retryAfter is the Retry-After of a 503, in seconds: the time the scans
// running and waiting take at the pace of the last one, 1 to 60.
func (p *scanPool) retryAfter() string {
	d := time.Duration(p.last.Load()) * time.Duration(cap(p.tickets)) / time.Duration(cap(p.slots))
	return strconv.Itoa(int(min(60, max(1, math.Ceil(d.Seconds())))))
}

// testHooks let the tests hold and watch the scans; all nil in a server.
type testHooks struct {
	scanStart func(ctx context.Context) // a scan got its slot
	scanGame  func(ctx context.Context) // a scan found a game of the page
	scanEnd   func(err error)           // a scan ended
}

// scan answers GET /games?page=N: the page of every game through p that
// sel selects, by a scan in the pool.
func (s *server) scan(w http.ResponseWriter, r *http.Request, p board.Position, sel book.Selection, page, perPage int) {
	var out *GamePage
	ok := s.pooled(w, r, "the scan of the games through "+p.FEN(), func(ctx context.Context) error {
		if s.hooks.scanStart != nil {
			s.hooks.scanStart(ctx)
		}
		var found func()
		if s.hooks.scanGame != nil {
			found = func() { s.hooks.scanGame(ctx) }
		}
		err := s.query(func(x *Explorer) (err error) {
			out, err = x.gamesPage(ctx, p, page, perPage, book.ThroughOptions{Sel: sel, Workers: s.scans.workers}, found)
			return err
		})
		if s.hooks.scanEnd != nil {
			s.hooks.scanEnd(err)
		}
		return err
	})
	if ok {
		s.reply(w, r, http.StatusOK, out)
	}
}

// pooled runs f in the pool, under its deadline and the request's
// context, as a scan of what; when it cannot run or fails, the request is
// answered (scanFailed) and pooled returns false.
func (s *server) pooled(w http.ResponseWriter, r *http.Request, what string, f func(ctx context.Context) error) bool {
	ctx, cancel := context.WithTimeout(r.Context(), s.scans.timeout)
	defer cancel()
	release, err := s.scans.acquire(ctx)
	if err != nil {
		s.scanFailed(w, r, what, err)
		return false
	}
	defer release()
	start := time.Now()
	if err := f(ctx); err != nil {
		s.scanFailed(w, r, what, err)
		return false
	}
	s.scans.last.Store(int64(time.Since(start)))
	return true
}

// scanFailed answers a scan (of what) that failed: 503 with Retry-After
// when the pool is full or the deadline passed (and when the client left,
// though it does not read the answer), else as indexFailed does.
func (s *server) scanFailed(w http.ResponseWriter, r *http.Request, what string, err error) {
	var msg string
	switch {
	case errors.Is(err, errBusy):
		msg = fmt.Sprintf("busy: %d scans of the games (/games with page=N, /search, /players) are running or waiting, the most this server takes; try again in a few seconds", cap(s.scans.tickets))
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("%s took more than %v, with its wait: the server is busy, or the position is rare and the page far; try again later, or ask for an earlier page", what, s.scans.timeout)
	case errors.Is(err, context.Canceled):
		msg = "the request was cancelled"
	default:
		s.indexFailed(w, r, err)
		return
	}
	w.Header().Set("Retry-After", s.scans.retryAfter())
	s.fail(w, r, http.StatusServiceUnavailable, msg)
}
