//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package scratch

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f, waiting for it (wait) or
// failing at once when another open file holds it.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
