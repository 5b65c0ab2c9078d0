package scratch

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCreateBesideRemoveStale: processes that each remove what killed ones
// left and then make their own scratch directory or file (as every
// reader of the store does in TMPDIR) never remove one another's, nor
// fail because another removed theirs before they locked it. flock locks
// belong to open files, so goroutines here stand for processes. A
// directory nobody holds (a killed process's) is removed.
func TestCreateBesideRemoveStale(t *testing.T) {
	parent := t.TempDir()
	killed := filepath.Join(parent, "x-killed")
	if err := os.Mkdir(killed, 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(dir bool) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				RemoveStale(parent, "x-*")
				f, err := CreateLocked(parent, "x-*", dir)
				if err != nil {
					errs <- err
					return
				}
				if _, err := os.Stat(f.Name()); err != nil {
					errs <- err
				}
				os.RemoveAll(f.Name())
				f.Close()
			}
		}(g%2 == 0)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("%s, which no process holds, is still there (%v)", killed, err)
	}
}
