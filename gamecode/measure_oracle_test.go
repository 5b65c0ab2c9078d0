//go:build oracle

package gamecode

import (
	"path/filepath"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
)

func TestMeasureMedium(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testutil.SharedData(t), "medium", "*.pgn*"))
	if len(files) == 0 {
		testutil.Missing(t, "no medium inputs in shared data")
	}
	report(t, measureFiles(t, files))
}

func TestMeasureLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large input: not with -short")
	}
	files, _ := filepath.Glob(filepath.Join(testutil.SharedData(t), "large", "*.pgn*"))
	if len(files) == 0 {
		testutil.Missing(t, "no large inputs in shared data")
	}
	report(t, measureFiles(t, files))
}
