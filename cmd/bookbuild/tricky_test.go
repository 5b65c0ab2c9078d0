package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chessbook/chessbook/internal/storetest"
)

// summary holds the counts of bookbuild's printed summary.
type summary struct {
	read, stored, uncommitted, dups, notStored, filtered, skipped int64
	byReason, byFilter                                            map[string]int64
	storeGames                                                    int64 // "N games in all", -1 if no store line
}

var (
	summaryCountRE = regexp.MustCompile(`^(games read|games stored|not written|duplicates|not stored|games filtered|games skipped):\s+(\d+)`)
	summaryItemRE  = regexp.MustCompile(`^  ([A-Za-z][A-Za-z ]*):\s+(\d+)$`)
	storeLineRE    = regexp.MustCompile(`^store: .*, (\d+) games in all`)
)

// parseSummary reads bookbuild's summary. Counts that are not printed (not
// stored, games filtered) are 0.
func parseSummary(t *testing.T, out string) summary {
	t.Helper()
	s := summary{byReason: map[string]int64{}, byFilter: map[string]int64{}, storeGames: -1}
	var items map[string]int64
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if m := summaryCountRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			seen[m[1]] = true
			items = nil
			switch m[1] {
			case "games read":
				s.read = n
			case "games stored":
				s.stored = n
			case "not written":
				s.uncommitted = n
			case "duplicates":
				s.dups = n
			case "not stored":
				s.notStored = n
			case "games filtered":
				s.filtered = n
				items = s.byFilter
			case "games skipped":
				s.skipped = n
				items = s.byReason
			}
			continue
		}
		if m := summaryItemRE.FindStringSubmatch(line); m != nil && items != nil {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			items[m[1]] = n
			continue
		}
		if m := storeLineRE.FindStringSubmatch(line); m != nil {
			s.storeGames, _ = strconv.ParseInt(m[1], 10, 64)
		}
		if !strings.HasPrefix(line, "  ") {
			items = nil
		}
	}
	for _, k := range []string{"games read", "games stored", "duplicates", "games skipped"} {
		if !seen[k] {
			t.Fatalf("summary lacks %q:\n%s", k, out)
		}
	}
	return s
}

// reconcile checks that every game read is accounted for exactly once:
// read = ingested + not written + duplicates + not stored + filtered +
// skipped, and each total is the sum of its lines by reason.
func (s summary) reconcile() error {
	if got := s.stored + s.uncommitted + s.dups + s.notStored + s.filtered + s.skipped; got != s.read {
		return fmt.Errorf("games read %d != ingested %d + not written %d + duplicates %d + not stored %d + filtered %d + skipped %d = %d",
			s.read, s.stored, s.uncommitted, s.dups, s.notStored, s.filtered, s.skipped, got)
	}
	if n := sum(s.byReason); n != s.skipped {
		return fmt.Errorf("games skipped %d, but the reasons add up to %d (%v)", s.skipped, n, s.byReason)
	}
	if n := sum(s.byFilter); n != s.filtered {
		return fmt.Errorf("games filtered %d, but the filters add up to %d (%v)", s.filtered, n, s.byFilter)
	}
	return nil
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// readReport reads a -report file and checks it against the summary: the
// same counts, every skipped game listed with its file, line and reason.
func checkReport(t *testing.T, path string, s summary, input string) reportJSON {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	var r reportJSON
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("report: %v", err)
	}
	if r.Games != s.read || r.Stored != s.stored || r.Uncommitted != s.uncommitted || r.Duplicates != s.dups || r.NotStored != s.notStored ||
		r.Filtered != s.filtered || sum(r.Skipped) != s.skipped || sum(r.FilteredBy) != r.Filtered {
		t.Errorf("report %+v does not match the summary %+v", r, s)
	}
	if r.Games != r.Replayed+sum(r.Skipped) || r.Replayed != r.Stored+r.Uncommitted+r.Duplicates+r.NotStored+r.Filtered {
		t.Errorf("report does not reconcile: games %d, ingested %d, stored %d, not written %d, duplicates %d, not stored %d, filtered %d, skipped %v",
			r.Games, r.Replayed, r.Stored, r.Uncommitted, r.Duplicates, r.NotStored, r.Filtered, r.Skipped)
	}
	for reason, n := range s.byReason {
		if r.Skipped[reason] != n {
			t.Errorf("report: %d games skipped for %s, summary %d", r.Skipped[reason], reason, n)
		}
	}
	if int64(len(r.Errors)) != s.skipped {
		t.Errorf("report lists %d skipped games, summary counts %d", len(r.Errors), s.skipped)
	}
	for _, e := range r.Errors {
		if (input != "" && e.File != input) || e.Line < 1 || r.Skipped[e.Reason] == 0 || e.Detail == "" {
			t.Errorf("report entry %+v: want file %s, a line, a counted reason and a detail", e, input)
		}
	}
	return r
}

// trickyFiles lists every file under the repository's testdata/tricky
// (with -tags oracle, ../shared/data/tricky), of every type.
func trickyFiles(t *testing.T) (root string, files []string) {
	root = trickyRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d files under %s", len(files), root)
	}
	return root, files
}

// notPGN are the files of tricky/ that hold no PGN at all (its notes):
// bookbuild refuses them before any work, with exit status 2.
var notPGN = map[string]bool{"PROVENANCE.txt": true, "chess_db_annotated/BLOBS.txt": true}

// noGames are the files of tricky/ that look like PGN at first (a move
// number) but hold no game: ICC newsletters in HTML. bookbuild reads
// them, finds no game, and ends with exit status 2, leaving no store.
var noGames = map[string]bool{"rogermarsh_pgn-read/crafty06_02.pgn": true, "rogermarsh_pgn-read/crafty06_03.pgn": true}

// TestTrickyFiles runs bookbuild on every file under tricky/, one at a
// time, each into a new store: no panic, exit status 0 (1 only for a file
// that can not be read at all, 2 for one that holds no PGN, refused
// before a store is made, or no game, found as it is read), a summary and a -report that account for
// every game, and a store that opens and answers.
func TestTrickyFiles(t *testing.T) {
	root, files := trickyFiles(t)
	var mu sync.Mutex
	var totalRead, totalVariant int64
	// Runs are mostly waiting for fsync: a few at a time.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			t.Run(rel, func(t *testing.T) {
				// Each store is removed when its subtest ends: an empty
				// store takes over 100 MiB of disk (Pebble preallocates
				// its write-ahead logs).
				dir := t.TempDir()
				db := filepath.Join(dir, "db")
				report := filepath.Join(dir, "report.json")
				var out, errOut bytes.Buffer
				code := run([]string{"-progress", "none", "-mem", "256", "-db", db, "-report", report, path}, &out, &errOut)
				if notPGN[rel] {
					if _, err := os.Stat(db); code != 2 || !strings.Contains(errOut.String(), path+": not PGN") || err == nil || out.Len() != 0 {
						t.Errorf("a file of no PGN: exit %d, store made: %v, stdout %q, stderr %q; want 2, no store, the file named", code, err == nil, out.String(), errOut.String())
					}
					return
				}
				if noGames[rel] {
					if _, err := os.Stat(db); code != 2 || !strings.HasPrefix(errOut.String(), "bookbuild: no games found in "+path+": ") || err == nil || out.Len() != 0 {
						t.Errorf("a file of no game: exit %d, store left: %v, stdout %q, stderr %q; want 2, no store, the file named", code, err == nil, out.String(), errOut.String())
					}
					return
				}
				if code == 2 && strings.HasPrefix(errOut.String(), "bookbuild: no game stored: all ") {
					// Every game skipped (Chess960, say): nothing kept.
					if _, err := os.Stat(db); err == nil || strings.Count(errOut.String(), "\n") != 1 {
						t.Errorf("no game kept: store left: %v, stderr %q; want no store, one line", err == nil, errOut.String())
					}
					s := parseSummary(t, out.String())
					if s.reconcile() != nil || s.stored != 0 || s.skipped != s.read {
						t.Errorf("no game kept, but the summary says otherwise:\n%s", out.String())
					}
					mu.Lock()
					totalRead += s.read
					totalVariant += s.byReason["unsupported variant"]
					mu.Unlock()
					return
				}
				if code != 0 && code != 1 {
					t.Fatalf("exit %d: %s", code, errOut.String())
				}
				if code == 1 && !strings.Contains(errOut.String(), path) {
					t.Errorf("exit 1 with an error that does not name the file: %s", errOut.String())
				}
				if code == 0 && errOut.Len() != 0 {
					t.Errorf("exit 0 with errors: %s", errOut.String())
				}
				s := parseSummary(t, out.String())
				if err := s.reconcile(); err != nil {
					t.Errorf("%v\n%s", err, out.String())
				}
				if s.storeGames != s.stored {
					t.Errorf("store line counts %d games, %d ingested into a new store", s.storeGames, s.stored)
				}
				checkReport(t, report, s, path)
				storetest.CheckAnswers(t, db, s.stored)
				mu.Lock()
				totalRead += s.read
				totalVariant += s.byReason["unsupported variant"]
				mu.Unlock()
			})
		}()
	}
	wg.Wait()
	if totalRead < minTrickyGames || totalVariant == 0 {
		t.Errorf("%d games read in all, %d of unsupported variants: want thousands, and some", totalRead, totalVariant)
	}
}

// TestTrickyAllAtOnce gives every tricky file to one run, and checks the
// totals against one run per file: the same games read, and a store that
// reconciles.
func TestTrickyAllAtOnce(t *testing.T) {
	root, all := trickyFiles(t)
	var files []string
	for _, f := range all {
		if rel, _ := filepath.Rel(root, f); !notPGN[rel] {
			files = append(files, f)
		}
	}
	db := filepath.Join(t.TempDir(), "db")
	report := filepath.Join(t.TempDir(), "report.json")
	var out, errOut bytes.Buffer
	code := run(append([]string{"-progress", "none", "-mem", "256", "-db", db, "-report", report}, files...), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// The files of no game are named, in warnings, and the run goes on.
	var warned []string
	for _, l := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
		if m := regexp.MustCompile(`^bookbuild: warning: no games found in (.*): no PGN game`).FindStringSubmatch(l); m != nil {
			rel, _ := filepath.Rel(root, m[1])
			warned = append(warned, rel)
		}
	}
	if len(warned) != len(noGames) || !noGames[warned[0]] || !noGames[warned[len(warned)-1]] {
		t.Errorf("warnings name %q, want the files of no game %v", warned, noGames)
	}
	s := parseSummary(t, out.String())
	if err := s.reconcile(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	checkReport(t, report, s, "")
	storetest.CheckAnswers(t, db, s.stored)
	if s.read < minTrickyGames || s.stored < minTrickyGames*3/5 || s.dups == 0 {
		t.Errorf("read %d, stored %d, duplicates %d: want thousands, thousands and some (tricky/ repeats games)", s.read, s.stored, s.dups)
	}
}

// TestChess960Skipped: the TCEC DFRC games are all Chess960 (3 of them in
// testdata, the whole file of 112 with -tags oracle), and
// skipped as an unsupported variant, each reported with its line. No game
// is kept: exit 2, one line saying why (also with -q), the store the run
// made removed, one that was there kept as it was; the report is written.
func TestChess960Skipped(t *testing.T) {
	path, n := chess960Input(t)
	db := filepath.Join(t.TempDir(), "db")
	report := filepath.Join(t.TempDir(), "report.json")
	code, out, errOut := runCLI(t, "-db", db, "-report", report, path)
	why := fmt.Sprintf("bookbuild: no game stored: all %d games read were skipped (unsupported variant: %d)", n, n)
	if want := why + "; the store this run created in " + db + " was removed\n"; code != 2 || errOut != want {
		t.Fatalf("exit %d, stderr %q; want 2, %q", code, errOut, want)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the store the run made was left behind (%v)", err)
	}
	s := parseSummary(t, out)
	if s.read != n || s.skipped != n || s.byReason["unsupported variant"] != n || s.stored != 0 || s.storeGames != -1 {
		t.Fatalf("want %d games read, all skipped as unsupported variant, no store line:\n%s", n, out)
	}
	if want := path + `:1: unsupported variant: Variant "fischerandom"`; !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
	r := checkReport(t, report, s, path)
	lines := map[int]bool{}
	for _, e := range r.Errors {
		if e.Reason != "unsupported variant" || e.Detail != `Variant "fischerandom"` || lines[e.Line] {
			t.Errorf("report entry %+v", e)
		}
		lines[e.Line] = true
	}
	// -q: the same line, nothing else.
	code, out, errOut = runCLI(t, "-q", "-db", db, path)
	if want := why + "; the store this run created in " + db + " was removed\n"; code != 2 || out != "" || errOut != want {
		t.Errorf("-q: exit %d, stdout %q, stderr %q; want 2, %q", code, out, errOut, want)
	}
	// Without a store: nothing replayed.
	code, _, errOut = runCLI(t, "-q", path)
	if want := fmt.Sprintf("bookbuild: no game replayed: all %d games read were skipped (unsupported variant: %d); dry run (no -db): nothing is stored anyway\n", n, n); code != 2 || errOut != want {
		t.Errorf("no -db: exit %d, stderr %q; want 2, %q", code, errOut, want)
	}
	// Into a store that was there: kept, as it was.
	if code, _, errOut := runCLI(t, "-q", "-db", db, champions); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "-q", "-db", db, path)
	if want := why + "; nothing was added to the store " + db + "\n"; code != 2 || errOut != want {
		t.Errorf("into a store: exit %d, stderr %q; want 2, %q", code, errOut, want)
	}
	storetest.CheckAnswers(t, db, 500)
	// Every game filtered out, with the Chess960 games: why, by reason.
	db2 := filepath.Join(t.TempDir(), "db2")
	code, _, errOut = runCLI(t, "-q", "-db", db2, "-min-rating", "3000", champions, path)
	if want := fmt.Sprintf("bookbuild: no game stored: none of the %d games read was kept: %d skipped (unsupported variant: %d), ", 500+n, n, n) +
		"500 left out by the filters (rating: 500); the store this run created in " + db2 + " was removed\n"; code != 2 || errOut != want {
		t.Errorf("filtered: exit %d, stderr %q; want 2, %q", code, errOut, want)
	}
	if _, err := os.Stat(db2); !os.IsNotExist(err) {
		t.Errorf("the store the run made was left behind (%v)", err)
	}
	// A re-run that finds every game stored already kept them: exit 0.
	if code, out, errOut := runCLI(t, "-db", db, champions); code != 0 || errOut != "" || !strings.Contains(out, "duplicates:      500") {
		t.Errorf("re-run: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	storetest.CheckAnswers(t, db, 500)
}
