package stats

import (
	"fmt"
	"strconv"
	"strings"
)

// A game's speed (its time-control class) and its rating band (that of
// its players' mean rating) are how the lichess opening explorer, and the
// builder's and the queries' filters, select games. Together they make
// the game's [Cell], the unit of a [History]. Names and parsing are
// lichess's, for the command-line flags and the HTTP API alike: speeds
// "ultraBullet" (any case) to "correspondence", rating bands by their
// floors "0" to "2500"; lists of either are comma-separated.

// Speed is a game's time-control class, from its TimeControl tag with
// lichess's bounds (see [SpeedOf]).
type Speed uint8

// The speeds, with lichess's bounds on the estimated game duration
// base + 40*increment seconds.
const (
	UltraBullet    Speed = iota // < 30 s
	Bullet                      // < 180 s
	Blitz                       // < 480 s
	Rapid                       // < 1500 s
	Classical                   // the rest
	Correspondence              // TimeControl "-"

	// NoSpeed is the speed of a game whose TimeControl says nothing
	// usable.
	NoSpeed Speed = 15
)

// NumSpeeds is the number of speeds (NoSpeed aside).
const NumSpeeds = int(Correspondence) + 1

var speedNames = [NumSpeeds]string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}

// SpeedList names the speeds, for messages and help.
const SpeedList = "ultraBullet, bullet, blitz, rapid, classical, correspondence"

// String returns the speed's name as the lichess API spells it
// ("ultraBullet", "blitz"), or "unknown".
func (s Speed) String() string {
	if int(s) < NumSpeeds {
		return speedNames[s]
	}
	return "unknown"
}

// ParseSpeed parses a speed's name (SpeedList), in any case.
func ParseSpeed(name string) (Speed, error) {
	for i, n := range speedNames {
		if strings.EqualFold(n, name) {
			return Speed(i), nil
		}
	}
	return NoSpeed, fmt.Errorf("unknown speed %q (want some of %s)", name, SpeedList)
}

// SpeedOf classifies a TimeControl tag value ("300+3", "60", "-"): the
// estimated duration base + 40*increment seconds against lichess's bounds.
// ok is false (and the speed NoSpeed) when the value says nothing usable
// ("?", "", "40/7200:3600").
func SpeedOf(tc []byte) (s Speed, ok bool) {
	v := strings.TrimSpace(string(tc))
	if v == "-" {
		return Correspondence, true
	}
	base, inc, hasInc := strings.Cut(v, "+")
	b, err := strconv.Atoi(base)
	if err != nil || b < 0 {
		return NoSpeed, false
	}
	i := 0
	if hasInc {
		if i, err = strconv.Atoi(inc); err != nil || i < 0 {
			return NoSpeed, false
		}
	}
	switch est := b + 40*i; {
	case est < 30:
		return UltraBullet, true
	case est < 180:
		return Bullet, true
	case est < 480:
		return Blitz, true
	case est < 1500:
		return Rapid, true
	}
	return Classical, true
}

// SpeedSet is a set of speeds; the zero SpeedSet means no speed filter.
type SpeedSet uint8

// Has reports whether s is in the set (NoSpeed never is).
func (ss SpeedSet) Has(s Speed) bool { return int(s) < NumSpeeds && ss&(1<<s) != 0 }

// With returns the set with s added (NoSpeed adds nothing).
func (ss SpeedSet) With(s Speed) SpeedSet {
	if int(s) >= NumSpeeds {
		return ss
	}
	return ss | 1<<s
}

// String returns the set's speeds as ParseSpeeds reads them
// ("blitz,rapid"; "" for the empty set).
func (ss SpeedSet) String() string {
	var names []string
	for s := range Speed(NumSpeeds) {
		if ss.Has(s) {
			names = append(names, s.String())
		}
	}
	return strings.Join(names, ",")
}

// ParseSpeeds parses a comma-separated list of speed names ("blitz,rapid",
// lichess's speeds parameter); "" is the empty set, no filter.
func ParseSpeeds(list string) (SpeedSet, error) {
	var ss SpeedSet
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		s, err := ParseSpeed(name)
		if err != nil {
			return 0, err
		}
		ss = ss.With(s)
	}
	return ss, nil
}

// RatingBand is the rating band of a game: that of the mean of its
// players' ratings, among lichess's bands (see [RatingBandOf]).
type RatingBand uint8

// NumRatingBands is the number of rating bands (NoRatingBand aside).
const NumRatingBands = 9

// NoRatingBand is the band of a game without both ratings.
const NoRatingBand RatingBand = 15

// ratingBandFloors are the lower bounds of lichess's rating bands (the
// last, 2500, has none above it).
var ratingBandFloors = [NumRatingBands]int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}

// RatingBandList names the rating bands by their floors, for messages and
// help.
const RatingBandList = "0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500"

// RatingBandOf returns the rating band of a game between players rated
// white and black: that of the mean of both ratings, rounded down; ok is
// false (and the band NoRatingBand) when a rating is unknown (0 or less),
// as lichess counts such a game only when no rating filter is given.
func RatingBandOf(white, black int) (b RatingBand, ok bool) {
	if white <= 0 || black <= 0 {
		return NoRatingBand, false
	}
	mean := (white + black) / 2
	for int(b)+1 < NumRatingBands && mean >= ratingBandFloors[b+1] {
		b++
	}
	return b, true
}

// Floor returns the lowest mean rating of the band (-1 for NoRatingBand).
func (b RatingBand) Floor() int {
	if int(b) < NumRatingBands {
		return ratingBandFloors[b]
	}
	return -1
}

// String returns the band's floor as lichess names the band ("1600"), or
// "unknown".
func (b RatingBand) String() string {
	if int(b) < NumRatingBands {
		return strconv.Itoa(ratingBandFloors[b])
	}
	return "unknown"
}

// ParseRatingBand parses a band's floor (RatingBandList).
func ParseRatingBand(floor string) (RatingBand, error) {
	n, err := strconv.Atoi(floor)
	for b := range RatingBand(NumRatingBands) {
		if err == nil && ratingBandFloors[b] == n {
			return b, nil
		}
	}
	return NoRatingBand, fmt.Errorf("unknown rating band %q (want some of %s)", floor, RatingBandList)
}

// RatingBandSet is a set of rating bands; the zero RatingBandSet means no
// rating filter.
type RatingBandSet uint16

// Has reports whether b is in the set (NoRatingBand never is).
func (bs RatingBandSet) Has(b RatingBand) bool {
	return int(b) < NumRatingBands && bs&(1<<b) != 0
}

// With returns the set with b added (NoRatingBand adds nothing).
func (bs RatingBandSet) With(b RatingBand) RatingBandSet {
	if int(b) >= NumRatingBands {
		return bs
	}
	return bs | 1<<b
}

// String returns the set's bands as ParseRatingBands reads them
// ("2000,2200"; "" for the empty set).
func (bs RatingBandSet) String() string {
	var names []string
	for b := range RatingBand(NumRatingBands) {
		if bs.Has(b) {
			names = append(names, b.String())
		}
	}
	return strings.Join(names, ",")
}

// ParseRatingBands parses a comma-separated list of rating band floors
// ("2000,2200", lichess's ratings parameter); "" is the empty set, no
// filter.
func ParseRatingBands(list string) (RatingBandSet, error) {
	var bs RatingBandSet
	for _, v := range strings.Split(list, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		b, err := ParseRatingBand(v)
		if err != nil {
			return 0, err
		}
		bs = bs.With(b)
	}
	return bs, nil
}

// Cell is a game's speed and rating band, the unit of the query-time
// filters and of a [History]'s rows: speed << 4 | band, each 15 (NoSpeed,
// NoRatingBand) when unknown. The encoding of a History holds it as this
// number.
type Cell uint8

// NewCell returns the cell of speed s and band b.
func NewCell(s Speed, b RatingBand) Cell { return Cell(s&15<<4 | Speed(b&15)) }

// CellOf returns the cell of a game from its TimeControl tag and its
// players' ratings (0 or less: unknown): see [SpeedOf] and
// [RatingBandOf].
func CellOf(timeControl []byte, white, black int) Cell {
	s, _ := SpeedOf(timeControl)
	b, _ := RatingBandOf(white, black)
	return NewCell(s, b)
}

// Speed returns the cell's speed (NoSpeed: unknown).
func (c Cell) Speed() Speed { return Speed(c >> 4) }

// RatingBand returns the cell's rating band (NoRatingBand: unknown).
func (c Cell) RatingBand() RatingBand { return RatingBand(c & 15) }
