// Package testutil holds what the project's tests share: finding the
// shared real-data folder and running data-driven test files.
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

// TrickyFiles returns every regular file under the shared data's tricky/
// folder, of every type (some are not PGN at all), in walk order; nil when
// the shared data is missing.
func TrickyFiles() []string {
	d := FindSharedData()
	if d == "" {
		return nil
	}
	var files []string
	_ = filepath.WalkDir(filepath.Join(d, "tricky"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	return files
}
