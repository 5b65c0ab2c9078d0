//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package scratch

import (
	"errors"
	"os"
)

// lockFile: without flock, no lock is taken, and none can be proved free
// (RemoveStale removes nothing).
func lockFile(_ *os.File, wait bool) error {
	if wait {
		return nil
	}
	return errors.New("no file locks on this system")
}
