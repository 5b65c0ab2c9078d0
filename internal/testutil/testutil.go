// Package testutil holds what the project's tests share: finding the
// shared real-data folder and the repository's testdata, running
// data-driven test files. See require.go for the two sets of tests.
package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FindSharedData returns the path of ../shared/data beside the module's
// root, found by walking up from the working directory to go.mod, or "".
func FindSharedData() string { return findShared("data") }

// findShared returns the path of ../shared/name beside the module's root
// if it is a folder, else "".
func findShared(name string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", name)
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// RunDataDriven runs the data-driven test file at path. The file is a
// sequence of blocks
//
//	command args...
//	input lines...
//	----
//	expected output
//
// separated by blank lines; lines starting with # between blocks are
// comments. run returns the actual output of one block. With rewrite set,
// the actual output is written back to the file instead of compared.
func RunDataDriven(t *testing.T, path string, rewrite bool, run func(cmd string, args, input []string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			i++
			continue
		}
		head := strings.Fields(line)
		startLine := i + 1
		i++
		var input []string
		for i < len(lines) && lines[i] != "----" {
			input = append(input, lines[i])
			i++
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: missing ----", path, startLine)
		}
		i++
		var want []string
		for i < len(lines) && lines[i] != "" {
			want = append(want, lines[i])
			i++
		}
		got := run(head[0], head[1:], input)
		wantStr := strings.Join(want, "\n")
		if len(want) > 0 {
			wantStr += "\n"
		}
		if got != wantStr && !rewrite {
			t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, startLine, line, got, wantStr)
		}
		out.WriteString(line + "\n")
		for _, in := range input {
			out.WriteString(in + "\n")
		}
		out.WriteString("----\n" + got)
	}
	if rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimSuffix(out.String(), "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// RepoRoot returns the module's root folder (where go.mod is), found by
// walking up from the working directory.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Testdata returns the path of rel in the repository's testdata/ folder
// ("champions500.pgn"), failing tb when it is not there.
func Testdata(tb testing.TB, rel string) string {
	tb.Helper()
	path := filepath.Join(RepoRoot(tb), "testdata", rel)
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("testdata: %v", err)
	}
	return path
}

// TrickyFiles returns every regular file under the repository's
// testdata/tricky, a slice of the shared data's tricky/ folder, in walk
// order.
func TrickyFiles(tb testing.TB) []string {
	tb.Helper()
	return walkFiles(tb, Testdata(tb, "tricky"))
}

// SharedTrickyFiles returns every regular file under the shared data's
// tricky/ folder, of every type (some are not PGN at all), in walk order;
// it fails tb when the folder is missing (see Missing).
func SharedTrickyFiles(tb testing.TB) []string {
	tb.Helper()
	return walkFiles(tb, SharedFile(tb, "tricky"))
}

// walkFiles returns the regular files under dir, in walk order.
func walkFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}
