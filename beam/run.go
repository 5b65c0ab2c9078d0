package bookbeam

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	// The --runner flag, and the runners a command line may name with it.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/exec/optimized"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// Result is what a run did: the report its last step wrote, and the
// pipeline's counters.
type Result struct {
	Report  *Report
	Metrics Metrics
	Elapsed time.Duration
}

// Metrics are the pipeline's counters, as the runner returns them.
type Metrics struct {
	GamesEmitted   int64 // games read, filtered, handed to the deduplication
	BytesDedupe    int64 // their encoded size (key included): what crosses the dedupe's shuffle at most
	GamesIntoShard int64 // games after the deduplication
	BytesShard     int64 // their encoded size: what crosses the partition's shuffle
}

// Run runs the pipeline of cfg on runner ("prism", "flink", "dataflow",
// ...; the runner's own options are flags, see package
// github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts) and waits
// for it. beam.Init must have been called.
func Run(ctx context.Context, runner string, cfg Config) (*Result, error) {
	if cfg.Shards < 1 {
		return nil, fmt.Errorf("bookbeam: %d shards: want 1 or more", cfg.Shards)
	}
	if err := os.MkdirAll(cfg.Workdir, 0o755); err != nil {
		return nil, err
	}
	// What a killed run left: the temporary directories of shards and
	// of the merge it did not finish (no attempt of this run has started).
	patterns := []string{filepath.Join(cfg.Workdir, "shard-*.tmp-*")}
	if cfg.DB != "" {
		patterns = append(patterns, cfg.DB+".tmp-*")
	}
	for _, pattern := range patterns {
		old, _ := filepath.Glob(pattern)
		for _, dir := range old {
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
		}
	}
	// A report of an earlier run must not pass for this one's.
	if err := os.Remove(cfg.Workdir + "/report.json"); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	Construct(s, cfg)
	start := time.Now()
	pr, err := beam.Run(ctx, runner, p)
	if err != nil {
		return nil, err
	}
	res := &Result{Elapsed: time.Since(start)}
	if pr != nil {
		for _, c := range pr.Metrics().AllMetrics().Counters() {
			if c.Namespace() != "bookbeam" {
				continue
			}
			v := c.Result()
			m := &res.Metrics
			switch c.Name() {
			case "games_emitted":
				m.GamesEmitted += v
			case "bytes_into_dedupe":
				m.BytesDedupe += v
			case "games_into_shards":
				m.GamesIntoShard += v
			case "bytes_into_shards":
				m.BytesShard += v
			}
		}
	}
	res.Report, err = ReadReport(cfg.Workdir)
	return res, err
}
