package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version returns the one line that a command's -version prints: the
// program's name, its module and the module's version ("(devel)" when
// built from a checkout), the VCS revision it was built from with its time
// and whether the work tree had changes, and the Go toolchain, all read
// from the binary's build information:
//
//	bookbuild github.com/chessbook/chessbook (devel), revision b342469c8e1f (2026-11-27T21:10:00Z, modified), go1.26.8 linux/amd64
//
// A binary built without VCS information (go run, -buildvcs=false, a
// source tree outside git) says "revision unknown".
func Version(program string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("%s (no build information), %s %s/%s", program, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	return versionLine(program, info)
}

func versionLine(program string, info *debug.BuildInfo) string {
	mod, ver := info.Main.Path, info.Main.Version
	if mod == "" {
		mod = info.Path
	}
	if ver == "" {
		ver = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	vcs := "revision unknown"
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		vcs = "revision " + rev
		var notes []string
		if when != "" {
			notes = append(notes, when)
		}
		if modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			vcs += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	goVer := info.GoVersion
	if goVer == "" {
		goVer = runtime.Version()
	}
	return fmt.Sprintf("%s %s %s, %s, %s %s/%s", program, mod, ver, vcs, goVer, runtime.GOOS, runtime.GOARCH)
}
