package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireDataEnv names the environment variable that makes every test
// fail, instead of skipping, when the shared data or a tool it checks
// against is missing: with CHESSBOOK_REQUIRE_DATA=1 (CI sets it, see
// .ci/run) an oracle that did not run is a failure, not a silent pass.
const RequireDataEnv = "CHESSBOOK_REQUIRE_DATA"

// RequireData reports whether CHESSBOOK_REQUIRE_DATA=1 is set.
func RequireData() bool { return os.Getenv(RequireDataEnv) == "1" }

// Missing stops tb because something it needs (the shared data, a file of
// it, a tool) is missing: a skip, or a failure when RequireData.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if RequireData() {
		tb.Fatalf("%s (and %s=1 says it must be there)", msg, RequireDataEnv)
	}
	tb.Skip(msg)
}

// SharedData returns the path of the shared real-data folder
// (../shared/data beside the module's root, as CI lays it out), or stops
// the test with Missing when it is absent.
func SharedData(tb testing.TB) string {
	tb.Helper()
	if d := FindSharedData(); d != "" {
		return d
	}
	Missing(tb, "../shared/data not found beside the module")
	return ""
}

// SharedDataIfAny returns the path of the shared real-data folder, or ""
// when it is absent, for a test that also runs without it (on less
// input); with RequireData its absence fails tb.
func SharedDataIfAny(tb testing.TB) string {
	tb.Helper()
	d := FindSharedData()
	if d == "" && RequireData() {
		tb.Fatalf("../shared/data not found beside the module (and %s=1 says it must be there)", RequireDataEnv)
	}
	return d
}

// SharedFile returns the path of the file (or folder) rel of the shared
// data ("books/gm2001.bin"), stopping the test with Missing when it or the
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
// specifications (../shared/spec beside the module's root), stopping the
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

// NeedTool returns the path of the program name found in PATH, stopping
// the test with Missing when it is not there; why says what the test
// loses ("no make-book to compare with"). Debian installs polyglot and
// pgn-extract in /usr/games, which is not always in PATH: .ci/run adds it.
func NeedTool(tb testing.TB, name, why string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, "%s is not in PATH (Debian puts games in /usr/games): %s", name, why)
	}
	return p
}
