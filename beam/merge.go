package bookbeam

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/book/merge"
	"github.com/chessbook/chessbook/pgn"
)

// merge merges the shard stores srcs into Config.DB: into a temporary
// directory beside it, renamed to DB when complete, so that DB is either
// missing or whole. A DB there already is the merge of an earlier
// attempt of this step (the command refuses to start over an existing
// DB), and is kept.
func (f *finishFn) merge(ctx context.Context, srcs []string) (*MergeResult, error) {
	db := f.Cfg.DB
	res := &MergeResult{DB: db, Stores: int64(len(srcs))}
	if _, err := os.Stat(db); err == nil {
		return res, nil
	} else if !errors.Is(err, iofs.ErrNotExist) {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(db), filepath.Base(db)+".tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "store")
	if len(srcs) == 0 {
		// No game in any input: the store is empty, with the build's options.
		_, err = build.Run(ctx, build.RunOptions{Options: f.Cfg.Options, Dir: dst, Workers: 1,
			Games: func(func(*pgn.Game) error) error { return nil }})
	} else {
		// The shards hold disjoint games (ranges of content id) and the
		// stamps of one build (Options.Inputs is every input): Merge
		// copies them record by record, stamps kept.
		var ms merge.Stats
		ms, err = merge.Run(ctx, dst, srcs, merge.Options{KeepStamps: true, MemBudget: f.Cfg.Options.MemBudget})
		res.Games, res.Duplicates, res.Replayed = ms.Games, ms.Duplicates, ms.Replayed
	}
	if err != nil {
		return nil, fmt.Errorf("merging the shard stores into %s: %w", db, err)
	}
	if err := os.Rename(dst, db); err != nil {
		return nil, err
	}
	return res, nil
}
