package testutil

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how Missing stops it: as
// testing's, its Fatalf and Skip end the goroutine (see stopped).
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skip(args ...any) {
	r.skip = fmt.Sprint(args...)
	runtime.Goexit()
}

// stopped runs f on a recorder in a goroutine of its own and returns it.
func stopped(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// TestMissing: a missing requirement skips, or fails with
// CHESSBOOK_REQUIRE_DATA=1; so do NeedTool for a program not in PATH and
// SharedFile for a file the shared data lacks.
func TestMissing(t *testing.T) {
	for _, require := range []string{"", "0", "1"} {
		t.Setenv(RequireDataEnv, require)
		for name, stop := range map[string]func(tb testing.TB){
			"Missing":    func(tb testing.TB) { Missing(tb, "no %s", "oracle") },
			"NeedTool":   func(tb testing.TB) { NeedTool(tb, "chessbook-no-such-tool", "no oracle") },
			"SharedSpec": func(tb testing.TB) { SharedSpec(tb, "no-such-spec.md") },
		} {
			r := stopped(stop)
			if require == "1" {
				if r.fatal == "" || r.skip != "" || !strings.Contains(r.fatal, RequireDataEnv+"=1") {
					t.Errorf("%s with %s=%q: fatal %q, skip %q; want a failure naming the variable", name, RequireDataEnv, require, r.fatal, r.skip)
				}
			} else if r.skip == "" || r.fatal != "" {
				t.Errorf("%s with %s=%q: fatal %q, skip %q; want a skip", name, RequireDataEnv, require, r.fatal, r.skip)
			}
		}
	}
	t.Setenv(RequireDataEnv, "1")
	if p := NeedTool(t, "go", "no go"); p == "" {
		t.Error("NeedTool(go) found nothing")
	}
	if FindSharedData() != "" {
		if r := stopped(func(tb testing.TB) { SharedFile(tb, "no-such-file") }); r.fatal == "" {
			t.Error("SharedFile of a missing file did not fail")
		}
		if p := SharedFile(t, "README.md"); !strings.HasSuffix(p, "README.md") {
			t.Errorf("SharedFile(README.md) = %q", p)
		}
	}
}
