package build

import (
	"math/rand/v2"
	"time"
)

// WithCommitEvery returns o set to commit at least every d while games
// are added (instead of every 30 s); d below 0: by size only.
func WithCommitEvery(o Options, d time.Duration) Options {
	o.commitEvery = d
	return o
}

// WithoutSingles returns o set to write every position as a statistics
// record, even in count modes whose stores keep single references: the
// oracle of the single reference tests.
func WithoutSingles(o Options) Options {
	o.noSingles = true
	return o
}

// HookPoint is a point of a build where a test hook is called (see
// WithHook).
type HookPoint = hookPoint

// The hook points.
const (
	HookRead      = hookRead      // a worker is about to read a game
	HookAdd       = hookAdd       // a worker is about to add a game it claimed
	HookCommit    = hookCommit    // the committer is about to commit
	HookCommitted = hookCommitted // the committer has committed
)

// WithHook returns o set to call fn at each hook point of the build: the
// workers with their own random source (seeded from seed and the worker's
// number), the committer with nil. fn may sleep, to shuffle the workers'
// scheduling, or end the process, to kill the build at that point.
func WithHook(o Options, seed uint64, fn func(HookPoint, *rand.Rand)) Options {
	o.hook, o.hookSeed = fn, seed
	return o
}

// String names the hook point, for the tests' logs.
func (p hookPoint) String() string {
	switch p {
	case hookRead:
		return "read"
	case hookAdd:
		return "add"
	case hookCommit:
		return "commit"
	case hookCommitted:
		return "committed"
	}
	return "hook?"
}
