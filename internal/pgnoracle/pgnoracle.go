package pgnoracle

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/text/encoding/charmap"
)

// Game is one game of a PGN text as the oracle reads it.
type Game struct {
	Text        string            // the game's lines, tags and movetext, as in the file (line ends "\n")
	Tags        map[string]string // the first value of each tag
	Moves       []string          // the main line's SAN tokens, without move numbers, check marks or annotations
	Termination string            // the movetext's last termination marker: "1-0", "0-1", "1/2-1/2", "*", or ""
}

var (
	tagLine  = regexp.MustCompile(`^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$`)
	badTag   = regexp.MustCompile(`^\[(\w+)\s+"(.*?)"?\]\s*$`) // unescaped quotes inside, or the closing one missing
	comment  = regexp.MustCompile(`\{[^}]*\}|;[^\n]*`)
	nag      = regexp.MustCompile(`\$\d+`)
	moveNum  = regexp.MustCompile(`^\d+\.+`)
	unescape = strings.NewReplacer(`\"`, `"`, `\\`, `\`)
)

// Parse returns the games of a PGN text, in file order, copies included.
func Parse(text []byte) []Game {
	s := strings.ReplaceAll(string(text), "\r", "")
	s = strings.TrimPrefix(s, "\uFEFF")
	var games []Game
	var cur *Game
	var body, movetext strings.Builder
	inMoves := false
	finish := func() {
		if cur == nil {
			return
		}
		cur.Text = body.String()
		cur.Moves, cur.Termination = moves(movetext.String())
		games = append(games, *cur)
		cur = nil
		body.Reset()
		movetext.Reset()
	}
	for _, line := range strings.Split(s, "\n") {
		m := tagLine.FindStringSubmatch(line)
		if m == nil {
			m = badTag.FindStringSubmatch(line)
		}
		if m != nil {
			if _, again := cur.tagged(m[1]); cur == nil || inMoves || again && m[1] == "Event" {
				finish()
				cur = &Game{Tags: map[string]string{}}
				inMoves = false
			}
			body.WriteString(line + "\n")
			if _, dup := cur.Tags[m[1]]; !dup {
				cur.Tags[m[1]] = latin1(unescape.Replace(m[2]))
			}
			continue
		}
		if cur == nil {
			continue // text before the first game
		}
		body.WriteString(line + "\n")
		if strings.TrimSpace(line) != "" {
			inMoves = true
			movetext.WriteString(line + "\n")
		}
	}
	finish()
	return games
}

// moves returns the SAN tokens of movetext and its last termination
// marker.
func moves(text string) (sans []string, termination string) {
	text = comment.ReplaceAllString(text, " ")
	var b strings.Builder
	depth := 0
	for _, c := range text {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	text = nag.ReplaceAllString(b.String(), " ")
	for _, tok := range strings.Fields(text) {
		tok = moveNum.ReplaceAllString(tok, "")
		switch tok {
		case "":
			continue
		case "1-0", "0-1", "1/2-1/2", "*":
			termination = tok
			continue
		}
		tok = strings.TrimRight(tok, "+#!?")
		tok = strings.ReplaceAll(tok, "0-0", "O-O")
		if tok != "" {
			sans = append(sans, tok)
		}
	}
	return sans, termination
}

// latin1 reads the bytes of s that are not UTF-8 as Windows-1252 (what
// files said to be Latin-1 are).
func latin1(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			if r = charmap.Windows1252.DecodeByte(s[i]); r == utf8.RuneError {
				r = rune(s[i])
			}
		}
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// ReadFile returns the text of a PGN file, decompressed by its name's
// ending: .zst, .bz2, .gz, or plain.
func ReadFile(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r io.Reader
	switch {
	case strings.HasSuffix(path, ".zst"):
		zr, err := zstd.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	case strings.HasSuffix(path, ".bz2"):
		r = bzip2.NewReader(bytes.NewReader(raw))
	case strings.HasSuffix(path, ".gz"):
		gr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = gr
	default:
		return raw, nil
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return text, nil
}

// Read returns the games of the PGN files, in order (see Parse and
// ReadFile), failing tb on an error or a file without games.
func Read(tb testing.TB, paths ...string) []Game {
	tb.Helper()
	var games []Game
	for _, path := range paths {
		text, err := ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		g := Parse(text)
		if len(g) == 0 {
			tb.Fatalf("%s: the oracle read no games", path)
		}
		games = append(games, g...)
	}
	return games
}

// tagged returns the game's tag name and whether it has it (false for no
// game).
func (g *Game) tagged(name string) (string, bool) {
	if g == nil {
		return "", false
	}
	v, ok := g.Tags[name]
	return v, ok
}

// FromPosition reports whether the game starts from a set-up position (a
// SetUp "1" or a FEN tag).
func (g *Game) FromPosition() bool { return g.Tags["SetUp"] == "1" || g.Tags["FEN"] != "" }

// Speeds are lichess's speeds, in its order and spelling (the API's).
var Speeds = []string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}

// speedBelow are lichess's upper bounds of the estimated duration, base +
// 40 * increment seconds, of Speeds but correspondence.
var speedBelow = []int{30, 180, 480, 1500, 21600}

var timeControl = regexp.MustCompile(`^(\d+)(?:\+(\d+))?$`)

// Speed returns lichess's speed of a TimeControl tag: "correspondence"
// for "-", else by the estimated duration base + 40*increment seconds
// (ultraBullet < 30, bullet < 180, blitz < 480, rapid < 1500, classical
// < 21600, correspondence beyond), "" for a missing or unreadable one.
func Speed(tc string) string {
	if tc == "-" {
		return "correspondence"
	}
	m := timeControl.FindStringSubmatch(tc)
	if m == nil {
		return ""
	}
	base, err := strconv.Atoi(m[1])
	if err != nil {
		return ""
	}
	inc := 0
	if m[2] != "" {
		if inc, err = strconv.Atoi(m[2]); err != nil {
			return ""
		}
	}
	est := base + 40*inc
	for i, below := range speedBelow {
		if est < below {
			return Speeds[i]
		}
	}
	return "correspondence"
}

// Speed returns the game's speed (Speed of its TimeControl tag).
func (g *Game) Speed() string { return Speed(g.Tags["TimeControl"]) }

// BandFloors are the lower bounds of the lichess explorer's rating groups.
var BandFloors = []int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// Band returns the index in BandFloors of the group of the mean rating
// (rounded down) of players rated white and black, -1 unless both are
// positive integers.
func Band(white, black string) int {
	w, err1 := strconv.Atoi(white)
	b, err2 := strconv.Atoi(black)
	if err1 != nil || err2 != nil || w <= 0 || b <= 0 {
		return -1
	}
	band := -1
	for i, f := range BandFloors {
		if (w+b)/2 >= f {
			band = i
		}
	}
	return band
}

// Band returns the game's rating band (Band of its Elo tags).
func (g *Game) Band() int { return Band(g.Tags["WhiteElo"], g.Tags["BlackElo"]) }

// Elo returns a rating tag's value, 0 unless a positive integer.
func Elo(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

var dateTag = regexp.MustCompile(`^(\d{4})[.\-/](\d\d|\?\?)[.\-/](\d\d|\?\?)`)

// Date reads a Date tag: year, month and day, each 0 when unknown
// ("????.??.??", "2024.??.??"); a month or day out of range is unknown,
// and so is the day of an unknown month. A tag that is not yyyy.mm.dd
// (or with - or /) gives its year if it begins with one.
func Date(s string) (year, month, day int) {
	m := dateTag.FindStringSubmatch(s)
	if m == nil {
		if len(s) >= 4 {
			if y, err := strconv.Atoi(s[:4]); err == nil && y > 0 {
				return y, 0, 0
			}
		}
		return 0, 0, 0
	}
	year, _ = strconv.Atoi(m[1])
	month, err := strconv.Atoi(m[2])
	if err != nil || month < 1 || month > 12 {
		return year, 0, 0
	}
	day, err = strconv.Atoi(m[3])
	if err != nil || day < 1 || day > 31 {
		day = 0
	}
	return year, month, day
}

// Date returns the game's date (Date of its Date tag).
func (g *Game) Date() (year, month, day int) { return Date(g.Tags["Date"]) }
