package bookbeam

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/chessbook/chessbook/book/build"
	"github.com/chessbook/chessbook/gamecode"
	"github.com/chessbook/chessbook/pgn"
)

// ShardResult is what building one shard did.
type ShardResult struct {
	Shard      int
	Dir        string // the shard's store
	Games      int64  // games given to the build
	Stored     int64  // games it stored
	Duplicates int64  // games it found stored already (none but for content-id collisions)
	Unstorable int64
	Errors     []string
	Positions  int64   // (position, move) occurrences added
	Bytes      int64   // the games' encoded size: what crossed the partition's shuffle
	Reused     bool    // the shard store of an earlier attempt, for the same games, was kept
	Seconds    float64 // the time the build took
}

// buildShardFn builds one shard's store (step 5).
type buildShardFn struct {
	Cfg Config
}

// digestFile, in a shard's directory, holds the digest of what the shard
// store was built from: the options, the inputs and the shard's games.
const digestFile = "digest"

// ProcessElement builds shard's games, sorted in the global input order,
// into Workdir/shard-NNNN/store, unless that store was built from the
// same games already (a retried bundle, a run again on the same inputs):
// the store is built in a temporary directory that is renamed into place
// when complete, so a shard directory always holds a whole build.
func (f *buildShardFn) ProcessElement(ctx context.Context, shard int, iter func(*Game) bool, emit func(ShardResult)) error {
	var games []Game
	var g Game
	res := ShardResult{Shard: shard}
	for iter(&g) {
		games = append(games, g)
		res.Bytes += encodedSize(&g) + 1 // and the shard key
	}
	sortGames(games)
	res.Games = int64(len(games))
	gamesUnique.Inc(ctx, res.Games)
	bytesShard.Inc(ctx, res.Bytes)
	digest, err := f.digest(shard, games)
	if err != nil {
		return err
	}
	dir := filepath.Join(f.Cfg.Workdir, shardName(shard))
	res.Dir = filepath.Join(dir, "store")
	if old, err := readShardResult(dir); err == nil && old.digest == digest {
		old.r.Reused = true
		emit(old.r)
		return nil
	}
	tmp, err := os.MkdirTemp(f.Cfg.Workdir, shardName(shard)+".tmp-")
	if err != nil {
		return fmt.Errorf("shard %d: %w", shard, err)
	}
	defer os.RemoveAll(tmp) // gone once renamed
	bo := build.RunOptions{Options: f.Cfg.Options, Dir: filepath.Join(tmp, "store"), Workers: 1, Compact: true,
		Games: func(yield func(*pgn.Game) error) error {
			for i := range games {
				pg, err := gamecode.DecodeGame(games[i].Rec)
				if err != nil {
					return fmt.Errorf("shard %d: game %d of %s: %w", shard, games[i].Seq, f.Cfg.Inputs[games[i].Input], err)
				}
				pg.File, pg.Line = f.Cfg.Inputs[games[i].Input], int(games[i].Line)
				if err := yield(&pg); err != nil {
					return err
				}
			}
			return nil
		}}
	start := time.Now()
	br, err := build.Run(ctx, bo)
	if err != nil {
		return fmt.Errorf("shard %d: %w", shard, err)
	}
	res.Stored, res.Duplicates, res.Unstorable = br.Stats.Games, br.Stats.Duplicates, br.Stats.Unstorable
	res.Errors, res.Positions = br.Stats.Errors, br.Stats.Positions
	res.Seconds = time.Since(start).Seconds()
	if err := writeShardResult(tmp, digest, res); err != nil {
		return fmt.Errorf("shard %d: %w", shard, err)
	}
	if err := replaceDir(tmp, dir, digest); err != nil {
		return fmt.Errorf("shard %d: %w", shard, err)
	}
	emit(res)
	return nil
}

// digest returns the hex SHA-256 of what shard is built from.
func (f *buildShardFn) digest(shard int, games []Game) (string, error) {
	h := sha256.New()
	head, err := json.Marshal(struct {
		Options build.Options
		Shard   int
		Shards  int
	}{f.Cfg.Options, shard, f.Cfg.Shards})
	if err != nil {
		return "", err
	}
	h.Write(head)
	var b []byte
	for i := range games {
		b = appendGame(b[:0], &games[i])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// shardRecord is a shard directory's digest file.
type shardRecord struct {
	Digest string
	Result ShardResult
}

type savedShard struct {
	digest string
	r      ShardResult
}

func readShardResult(dir string) (savedShard, error) {
	b, err := os.ReadFile(filepath.Join(dir, digestFile))
	if err != nil {
		return savedShard{}, err
	}
	var rec shardRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return savedShard{}, err
	}
	rec.Result.Dir = filepath.Join(dir, "store")
	return savedShard{rec.Digest, rec.Result}, nil
}

func writeShardResult(dir, digest string, r ShardResult) error {
	b, err := json.Marshal(shardRecord{Digest: digest, Result: r})
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(dir, digestFile), b)
}

// writeFileSync writes a file and syncs it.
func writeFileSync(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceDir renames the complete directory tmp to dir. A dir of an
// earlier run (another digest) is removed first; a dir with the same
// digest, which a concurrent attempt of the same bundle renamed there
// since, is kept and tmp dropped.
func replaceDir(tmp, dir, digest string) error {
	if err := os.Rename(tmp, dir); err == nil {
		return nil
	} else if !errors.Is(err, iofs.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY) {
		return err
	}
	if old, err := readShardResult(dir); err == nil && old.digest == digest {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// Report is what a run did, written to Workdir/report.json by the last
// step.
type Report struct {
	Files  []FileReport  // in input order
	Shards []ShardResult // in shard order
	Merge  *MergeResult  // nil without Config.DB
}

// MergeResult is the merge into Config.DB.
type MergeResult struct {
	DB         string
	Stores     int64
	Games      int64
	Duplicates int64 // games of a shard another shard holds: none (shards are disjoint)
	Replayed   int64 // shards Merge had to rebuild for such games: none
	Seconds    float64
}

// finishFn merges the shard stores and writes the report (step 6). It
// runs once, when every shard and every input is done (its side inputs).
type finishFn struct {
	Cfg Config
}

// ProcessElement merges the shards into DB and writes the report.
func (f *finishFn) ProcessElement(ctx context.Context, _ []byte, shards func(*ShardResult) bool, reports func(*FileReport) bool) error {
	var rep Report
	var fr FileReport
	for reports(&fr) {
		rep.Files = append(rep.Files, fr)
	}
	slices.SortFunc(rep.Files, func(a, b FileReport) int { return a.Input - b.Input })
	var sr ShardResult
	for shards(&sr) {
		rep.Shards = append(rep.Shards, sr)
	}
	slices.SortFunc(rep.Shards, func(a, b ShardResult) int { return a.Shard - b.Shard })
	if f.Cfg.DB != "" {
		srcs := make([]string, len(rep.Shards))
		for i, s := range rep.Shards {
			srcs[i] = s.Dir
		}
		start := time.Now()
		m, err := f.merge(ctx, srcs)
		if err != nil {
			return err
		}
		m.Seconds = time.Since(start).Seconds()
		rep.Merge = m
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return writeFileSync(filepath.Join(f.Cfg.Workdir, "report.json"), b)
}

// ReadReport reads the report a run wrote in workdir.
func ReadReport(workdir string) (*Report, error) {
	b, err := os.ReadFile(filepath.Join(workdir, "report.json"))
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(workdir, "report.json"), err)
	}
	return &r, nil
}
