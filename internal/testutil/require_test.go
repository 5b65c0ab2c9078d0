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

// TestMissing: a missing requirement fails, never skips; so do NeedTool
// for a program not in PATH or hidden by CHESSBOOK_NO_TOOLS=1 and
// SharedSpec for a file the shared specifications lack.
func TestMissing(t *testing.T) {
	for name, stop := range map[string]func(tb testing.TB){
		"Missing":    func(tb testing.TB) { Missing(tb, "no %s", "oracle") },
		"NeedTool":   func(tb testing.TB) { NeedTool(tb, "chessbook-no-such-tool", "no oracle") },
		"SharedSpec": func(tb testing.TB) { SharedSpec(tb, "no-such-spec.md") },
	} {
		if r := stopped(stop); r.fatal == "" || r.skip != "" {
			t.Errorf("%s: fatal %q, skip %q; want a failure", name, r.fatal, r.skip)
		}
	}
	if p := GoTool(t); p == "" {
		t.Error("GoTool found nothing")
	}
	t.Setenv(NoToolsEnv, "1")
	if r := stopped(func(tb testing.TB) { NeedTool(tb, "go", "no go") }); r.fatal == "" || !strings.Contains(r.fatal, NoToolsEnv) {
		t.Errorf("NeedTool(go) with %s=1: fatal %q, skip %q; want a failure naming the variable", NoToolsEnv, r.fatal, r.skip)
	}
	if p := Testdata(t, "champions500.pgn"); !strings.HasSuffix(p, "testdata/champions500.pgn") {
		t.Errorf("Testdata(champions500.pgn) = %q", p)
	}
	if r := stopped(func(tb testing.TB) { Testdata(tb, "no-such-file") }); r.fatal == "" {
		t.Error("Testdata of a missing file did not fail")
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
