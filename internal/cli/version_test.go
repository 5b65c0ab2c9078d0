package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Path:      "github.com/chessbook/chessbook/cmd/bookbuild",
		Main:      debug.Module{Path: "github.com/chessbook/chessbook", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "b342469c8e1f0123456789abcdef0123456789ab"},
			{Key: "vcs.time", Value: "2026-11-27T21:10:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := versionLine("bookbuild", info)
	want := "bookbuild github.com/chessbook/chessbook (devel), revision b342469c8e1f (2026-11-27T21:10:00Z, modified), go1.26.8 "
	if !strings.HasPrefix(got, want) {
		t.Errorf("versionLine = %q, want prefix %q", got, want)
	}
	info.Main.Version = "v1.2.3"
	info.Settings = nil
	got = versionLine("bookquery", info)
	want = "bookquery github.com/chessbook/chessbook v1.2.3, revision unknown, go1.26.8 "
	if !strings.HasPrefix(got, want) {
		t.Errorf("versionLine = %q, want prefix %q", got, want)
	}
	if v := Version("x"); !strings.HasPrefix(v, "x ") {
		t.Errorf("Version = %q", v)
	}
}
