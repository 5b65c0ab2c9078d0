package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// StartCPUProfile starts a CPU profile written to the file at path (the
// -cpuprofile flag of the commands) and returns the function that stops
// it and closes the file.
func StartCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
