package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The tests come in two sets (see docs/testing.md). The default set,
// `go test ./...`, reads only what the repository holds (testdata/) and
// needs no tool beyond Go: it never calls the functions of this file. The
// oracle set, the files with the build constraint `//go:build oracle`
// (`go test -tags oracle ./...`), compares with the shared real data in
// ../shared/data and with external programs (polyglot, pgn-extract,
// chromium); what they need is looked up here, and a missing file or
// program fails the test: an oracle that did not run is never a pass.

// RequireDataEnv names the environment variable the oracle command sets
// (CHESSBOOK_REQUIRE_DATA=1, see .ci/run). Missing fails whatever its
// value; no test reads it, so that the default set's cached results are
// reused by the oracle command for the packages without oracle files.
const RequireDataEnv = "CHESSBOOK_REQUIRE_DATA"

// NoToolsEnv names the environment variable that hides every external
// program from NeedTool (CHESSBOOK_NO_TOOLS=1): a way to check that a
// command needs none of them.
const NoToolsEnv = "CHESSBOOK_NO_TOOLS"

// Missing fails tb because something it needs (the shared data, a file of
// it, a tool) is missing.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	tb.Fatalf("%s: the oracle tests (-tags oracle) need it", fmt.Sprintf(format, args...))
}

// SharedData returns the path of the shared real-data folder
// (../shared/data beside the module's root, as CI lays it out), or fails
// the test with Missing when it is absent.
func SharedData(tb testing.TB) string {
	tb.Helper()
	if d := FindSharedData(); d != "" {
		return d
	}
	Missing(tb, "../shared/data not found beside the module")
	return ""
}

// SharedFile returns the path of the file (or folder) rel of the shared
// data ("books/gm2001.bin"), failing the test with Missing when it or the
// shared data is absent.
func SharedFile(tb testing.TB, rel string) string {
	tb.Helper()
	path := filepath.Join(SharedData(tb), rel)
	if _, err := os.Stat(path); err != nil {
		Missing(tb, "shared data: %v", err)
	}
	return path
}

// SharedSpec returns the path of the file rel of the shared
// specifications (../shared/spec beside the module's root), failing the
// test with Missing when it is absent.
func SharedSpec(tb testing.TB, rel string) string {
	tb.Helper()
	if d := findShared("spec"); d != "" {
		path := filepath.Join(d, rel)
		if _, err := os.Stat(path); err == nil {
			return path
		}
	}
	Missing(tb, "../shared/spec/%s not found beside the module", rel)
	return ""
}

// NeedTool returns the path of the external program name found in PATH,
// failing the test with Missing when it is not there (or when
// CHESSBOOK_NO_TOOLS=1); why says what the test loses ("no make-book to
// compare with"). Debian installs polyglot and pgn-extract in /usr/games,
// which is not always in PATH: .ci/run adds it. Every test that runs an
// external program looks it up here, and only oracle tests do.
func NeedTool(tb testing.TB, name, why string) string {
	tb.Helper()
	if os.Getenv(NoToolsEnv) == "1" {
		Missing(tb, "%s is hidden (%s=1): %s", name, NoToolsEnv, why)
	}
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, "%s is not in PATH (Debian puts games in /usr/games): %s", name, why)
	}
	return p
}

// GoTool returns the path of the go command that runs the tests (to build
// a command for a test that runs it as a process): it is no external
// tool, the default tests may use it.
func GoTool(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		p = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, serr := os.Stat(p); serr != nil {
			tb.Fatalf("the go command is not in PATH: %v", err)
		}
	}
	return p
}
