//go:build oracle

package savings

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

// sharedSmall returns the files of shared/data/small (its notes left out).
func sharedSmall(tb testing.TB) []string {
	m, _ := filepath.Glob(filepath.Join(testutil.SharedData(tb), "small", "*"))
	var files []string
	for _, f := range m {
		if !strings.HasSuffix(f, ".txt") {
			files = append(files, f)
		}
	}
	return files
}
