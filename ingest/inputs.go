package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Inputs are checked before any work is done, so that a run does not read
// half its inputs (or create a store) before it finds a missing file or a
// file that is no PGN.

// pgnSuffixes are the names of the files a directory input stands for.
var pgnSuffixes = []string{".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2", ".pgn.zstd"}

// sniffSize is how much of a file (decompressed) is read to tell whether
// it is PGN.
const sniffSize = 64 << 10

// InputError is the error for an input that cannot be read as PGN.
type InputError struct {
	Path   string
	Reason string
}

// Error implements error.
func (e *InputError) Error() string { return e.Path + ": " + e.Reason }

// ExpandInputs checks the inputs of a run before any work: each must be a
// readable file or directory, and its start (decompressed) must look like
// PGN (not a binary file, an HTML page, or text without a tag or a move
// number). A directory stands for the PGN files in it (*.pgn, *.pgn.zst,
// *.pgn.gz, *.pgn.bz2), in name order, not descending into
// subdirectories; notes say what each directory gave. "-" (standard
// input) is kept as it is, unchecked. Errors are *InputError or wrap it,
// one per bad input, joined.
func ExpandInputs(paths []string) (files, notes []string, err error) {
	var errs []error
	for _, p := range paths {
		if p == "-" {
			files = append(files, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &InputError{p, describeStatError(err)})
			continue
		}
		if !st.IsDir() {
			if err := checkPGN(p); err != nil {
				errs = append(errs, err)
				continue
			}
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			errs = append(errs, &InputError{p, fmt.Sprintf("cannot list the directory: %v", err)})
			continue
		}
		var inDir []string
		for _, e := range entries {
			name := strings.ToLower(e.Name())
			if e.Type().IsRegular() && slices.ContainsFunc(pgnSuffixes, func(s string) bool { return strings.HasSuffix(name, s) }) {
				inDir = append(inDir, filepath.Join(p, e.Name()))
			}
		}
		if len(inDir) == 0 {
			errs = append(errs, &InputError{p, "a directory with no PGN file (*.pgn, *.pgn.zst, *.pgn.gz, *.pgn.bz2)"})
			continue
		}
		slices.Sort(inDir)
		for _, f := range inDir {
			if err := checkPGN(f); err != nil {
				errs = append(errs, err)
				continue
			}
			files = append(files, f)
		}
		notes = append(notes, fmt.Sprintf("%s: a directory: reading its %d PGN files in name order", p, len(inDir)))
	}
	return files, notes, errors.Join(errs...)
}

func describeStatError(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// What PGN shows early: a tag line, a move number, or two moves in SAN.
var (
	tagLine    = regexp.MustCompile(`(?m)^\s*\[\w`)
	moveNumber = regexp.MustCompile(`(^|\s)\d+\.+\s*(?:[KQRBN]?[a-h]|O-O)`)
	sanMove    = `(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBN])?|O-O(?:-O)?)[+#]?`
	sanMoves   = regexp.MustCompile(`(^|\s)` + sanMove + `\s+` + sanMove + `(\s|$)`)
)

// checkPGN reads the start of file path (decompressed) and tells why it is
// no PGN, or nil. An empty file is PGN (of no games).
func checkPGN(path string) error {
	rc, err := Open(path)
	if err != nil {
		return &InputError{path, strings.TrimPrefix(strings.TrimPrefix(err.Error(), "ingest: "), path+": ")}
	}
	defer rc.Close()
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(rc, head)
	if err != nil && err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) {
		return &InputError{path, fmt.Sprintf("reading: %v", err)}
	}
	if reason := notPGN(head[:n], path); reason != "" {
		return &InputError{path, "not PGN: " + reason}
	}
	return nil
}

// firstBinary returns the index of the first byte of head that marks it
// as binary, or -1: a NUL (text in UTF-16, or binary), or the first of
// several control characters no text holds (more than 1% of head; a stray
// one in a comment occurs in real files).
func firstBinary(head []byte) int {
	control, first := 0, -1
	for i, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1a || c == 0x7f {
			if control++; first < 0 {
				first = i
			}
		}
	}
	if control > 0 && (bytes.IndexByte(head, 0) >= 0 || control*100 > len(head)) {
		return first
	}
	return -1
}

// looksPGN reports whether text holds what PGN shows early: a tag line, a
// move number, or two moves in SAN.
func looksPGN(text []byte) bool {
	return tagLine.Match(text) || moveNumber.Match(text) || sanMoves.Match(text)
}

// notPGN tells what head, the start of a file, is when it is no PGN, or "".
func notPGN(head []byte, path string) string {
	text := bytes.TrimLeft(head, "\ufeff \t\r\n")
	if len(text) == 0 {
		return ""
	}
	if fb := firstBinary(head); fb >= 0 && !looksPGN(head[:fb]) {
		// Binary from its start: a PGN file damaged further on (binary
		// data after games) is read, and the region reported.
		if strings.HasSuffix(strings.ToLower(path), ".bin") && len(head)%16 == 0 {
			return "a binary file, maybe a Polyglot book ('bookquery probe -book " + path + " -check' reads those)"
		}
		return "a binary file"
	}
	lower := bytes.ToLower(text[:min(len(text), 512)])
	if bytes.HasPrefix(lower, []byte("<")) {
		if bytes.Contains(lower, []byte("<html")) || bytes.HasPrefix(lower, []byte("<!doctype html")) {
			return "an HTML page (a failed download?)"
		}
		return "an XML or HTML file"
	}
	if !looksPGN(head) {
		where := "nothing in it"
		if len(head) == sniffSize {
			where = fmt.Sprintf("nothing in its first %d KiB", sniffSize>>10)
		}
		return where + ` looks like PGN (no tag such as [Event "..."], no move number, no moves such as e4 e5)`
	}
	return ""
}
