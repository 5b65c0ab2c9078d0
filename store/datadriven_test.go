package store

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/chessbook/chessbook/internal/testutil"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/pgn"
	"github.com/chessbook/chessbook/stats"
	"github.com/cockroachdb/pebble/v2"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of data-driven tests")

// TestDataDriven runs the scripts in testdata/. Commands:
//
//	open [readonly] [nometa] [max-ply=N] [count=MODE]
//	close
//	batch [games=N] [sync]      one merge per input line: pos move result rating date
//	ingest [games=N]            the input lines, summed per position, as one sstable
//	ingest-raw                  one sstable record per input line, in the given order
//	get POS
//	list
//	meta
//	flush
//	compact
//	tables                      the number of sstables and of keys in them
//
// Errors print as "error: ..." with the store directory shown as $DIR.
func TestDataDriven(t *testing.T) {
	files, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.IsDir() {
			continue
		}
		t.Run(f.Name(), func(t *testing.T) {
			dir := t.TempDir()
			var s *Store
			defer func() {
				if s != nil {
					_ = s.Close()
				}
			}()
			testutil.RunDataDriven(t, "testdata/"+f.Name(), *rewrite, func(cmd string, args, input []string) string {
				out, err := runCommand(t, dir, &s, cmd, args, input)
				if err != nil {
					return "error: " + strings.ReplaceAll(err.Error(), dir, "$DIR") + "\n"
				}
				return out
			})
		})
	}
}

func runCommand(t *testing.T, dir string, sp **Store, cmd string, args, input []string) (string, error) {
	s := *sp
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		flags[k] = v
	}
	games := func() uint64 {
		n, _ := strconv.ParseUint(flags["games"], 10, 64)
		return n
	}
	switch cmd {
	case "open":
		var opts Options
		_, opts.ReadOnly = flags["readonly"]
		if _, ok := flags["nometa"]; !ok {
			opts.Meta = &Meta{CountMode: CountOccurrence}
			if v, ok := flags["max-ply"]; ok {
				opts.Meta.MaxPly, _ = strconv.Atoi(v)
			}
			if v, ok := flags["count"]; ok {
				opts.Meta.CountMode = CountMode(v)
			}
		}
		var err error
		if *sp, err = Open(dir, opts); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "close":
		*sp = nil
		if err := s.Close(); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "batch":
		b := s.NewBatch()
		defer b.Close()
		for _, line := range input {
			pos, e := parseGame(t, line)
			if err := b.MergeEntry(pos, e); err != nil {
				return "", err
			}
		}
		b.AddGames(games())
		_, sync := flags["sync"]
		if err := b.Commit(sync); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "ingest", "ingest-raw":
		w, err := s.NewSSTWriter()
		if err != nil {
			return "", err
		}
		defer w.Close()
		if cmd == "ingest" {
			byPos := map[string]*stats.Entry{}
			for _, line := range input {
				pos, e := parseGame(t, line)
				if byPos[string(pos)] == nil {
					byPos[string(pos)] = new(stats.Entry)
				}
				byPos[string(pos)].Merge(e)
			}
			keys := make([]string, 0, len(byPos))
			for k := range byPos {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if err := w.MergeEntry([]byte(k), *byPos[k]); err != nil {
					return "", err
				}
			}
		} else {
			for _, line := range input {
				pos, e := parseGame(t, line)
				if err := w.MergeEntry(pos, e); err != nil {
					return "", err
				}
			}
		}
		w.AddGames(games())
		if err := w.Ingest(); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "get":
		e, ok, err := s.StatsRecord([]byte(args[0]))
		if err != nil {
			return "", err
		}
		if !ok {
			return "not found\n", nil
		}
		return formatEntry(e), nil
	case "list":
		var sb strings.Builder
		err := s.StatsRecords(func(pos []byte, e *stats.Entry) error {
			fmt.Fprintf(&sb, "%s:\n%s", pos, indent(formatEntry(*e)))
			return nil
		})
		return sb.String(), err
	case "meta":
		m := s.Meta()
		return fmt.Sprintf("format=%d max-ply=%d count=%s games=%d\n", m.FormatVersion, m.MaxPly, m.CountMode, m.Games), nil
	case "flush":
		if err := s.Flush(); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "compact":
		if err := s.Compact(context.Background()); err != nil {
			return "", err
		}
		return "ok\n", nil
	case "tables":
		tables, keys, merges, err := tableStats(s)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("tables=%d keys=%d merge-operands=%d\n", tables, keys, merges), nil
	}
	return "", errors.New("unknown command " + cmd)
}

// tableStats returns the number of sstables, of point keys in them and of
// merge operands among those.
func tableStats(s *Store) (tables int, keys, merges uint64, err error) {
	levels, err := s.db.SSTables(pebble.WithProperties())
	if err != nil {
		return 0, 0, 0, err
	}
	for _, level := range levels {
		for _, tbl := range level {
			tables++
			keys += tbl.Properties.NumEntries
			merges += tbl.Properties.NumMergeOperands
		}
	}
	return tables, keys, merges, nil
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

// parseGame parses "pos move result rating date" into a one-game entry.
func parseGame(t *testing.T, line string) ([]byte, stats.Entry) {
	f := strings.Fields(line)
	if len(f) != 5 {
		t.Fatalf("bad game line %q", line)
	}
	rating, err := strconv.Atoi(f[3])
	if err != nil {
		t.Fatal(err)
	}
	var e stats.Entry
	e.Add(parseMove(t, f[1]), pgn.ParseResult([]byte(f[2])), rating, stats.ParseDate(f[4]))
	return []byte(f[0]), e
}

// parseMove parses a plain from-to move such as "e2e4".
func parseMove(t *testing.T, s string) board.Move {
	if len(s) != 4 {
		t.Fatalf("bad move %q", s)
	}
	sq := func(f, r byte) board.Square { return board.Square(int(r-'1')*8 + int(f-'a')) }
	return board.NewMove(sq(s[0], s[1]), sq(s[2], s[3]))
}

func formatEntry(e stats.Entry) string {
	var sb strings.Builder
	sq := func(s board.Square) string { return string([]byte{'a' + byte(s%8), '1' + byte(s/8)}) }
	for _, m := range e.Moves {
		fmt.Fprintf(&sb, "%s%s: +%d =%d -%d *%d rating %d/%d dates %s..%s\n",
			sq(m.Move.From()), sq(m.Move.To()), m.WhiteWins, m.Draws, m.BlackWins, m.Unknown,
			m.RatingSum, m.RatingCount, m.FirstDate, m.LastDate)
	}
	return sb.String()
}
