package filter

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/stats"
)

// TestParse: every form a value takes, in every kind of filter, and what
// it gives.
func TestParse(t *testing.T) {
	blitzRapid := stats.SpeedSet(0).With(stats.Blitz).With(stats.Rapid)
	for _, tc := range []struct {
		v    Values
		k    Kind
		want Filter
	}{
		{Values{}, Build, Filter{}},
		{Values{}, History, Filter{Unit: Months}},
		{Values{Speeds: "blitz,rapid"}, Build, Filter{Speeds: blitzRapid}},
		{Values{Speeds: " Rapid , BLITZ,"}, Index, Filter{Speeds: blitzRapid}},
		{Values{Speeds: ",", Ratings: ",,", Modes: ","}, History, Filter{Unit: Months}},
		{Values{Ratings: "2000,2200"}, History, Filter{Unit: Months, Bands: 1<<6 | 1<<7}},
		{Values{Ratings: "0"}, Build, Filter{Bands: 1}},
		{Values{Modes: "rated,casual"}, Index, Filter{Modes: Rated | Casual}},
		{Values{Modes: "Casual"}, Index, Filter{Modes: Casual}},
		{Values{Since: "2024", Until: "2024"}, Build, Filter{Since: 20240000, Until: 20241231}},
		{Values{Since: "2024-01", Until: "2024-01"}, Index, Filter{Since: 20240100, Until: 20240131}},
		{Values{Since: "2024.01", Until: "2024.02"}, Build, Filter{Since: 20240100, Until: 20240231}},
		{Values{Since: "2024-01-15", Until: "2024.01.15"}, Index, Filter{Since: 20240115, Until: 20240115}},
		{Values{Since: " 2024-02-29 "}, Build, Filter{Since: 20240229}},
		{Values{Since: "2024", Until: "2024-01"}, History, Filter{Unit: Months, Since: 20240000, Until: 20240131}},
		{Values{Since: "1870.01", Until: "1879"}, History, Filter{Unit: Months, Since: 18700100, Until: 18791231}},
		{Values{MinRating: "2000", MaxRating: "2400", MinPlies: "20", MaxPlies: "80"}, Index,
			Filter{MinRating: 2000, MaxRating: 2400, MinPlies: 20, MaxPlies: 80}},
		{Values{MinRating: " 2000 ", MaxRating: "0", MinPlies: "0"}, Build, Filter{MinRating: 2000}},
		{Values{StandardStartOnly: true}, Build, Filter{StandardStartOnly: true}},
	} {
		for _, src := range []Source{FromParams, FromFlags} {
			got, err := Parse(tc.v, tc.k, src)
			if err != nil || got != tc.want {
				t.Errorf("Parse(%+v, %d, %d) = %+v, %v; want %+v", tc.v, tc.k, src, got, err, tc.want)
			}
		}
	}
}

// TestParseErrors: every error, word for word, as each kind and source
// words it (a build's flags as bookbuild has always printed them).
func TestParseErrors(t *testing.T) {
	const (
		speeds = " (want some of ultraBullet, bullet, blitz, rapid, classical, correspondence)"
		bands  = " (want some of 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500)"
		date   = "want a date YYYY, YYYY-MM or YYYY-MM-DD (or with dots, as PGN writes dates: YYYY.MM.DD)"
		month  = "want a month YYYY-MM (or YYYY.MM) or a year YYYY"
		count  = "want a whole number from 0 to 1048576"
	)
	for _, tc := range []struct {
		v    Values
		k    Kind
		src  Source
		want string
	}{
		// A build's flags.
		{Values{Speeds: "fast"}, Build, FromFlags, `-speeds: unknown speed "fast"` + speeds},
		{Values{Ratings: "2100"}, Build, FromFlags, `-ratings: unknown rating band "2100"` + bands},
		{Values{Modes: "ranked"}, Build, FromFlags, `-modes: unknown mode "ranked" (want rated, casual)`},
		{Values{Since: "yesterday"}, Build, FromFlags, `-since "yesterday": ` + date},
		{Values{Since: "2099.13.45"}, Build, FromFlags, `-since "2099.13.45": month 13: want 01 to 12`},
		{Values{Until: "2023.02.30"}, Build, FromFlags, `-until "2023.02.30": day 30: 2023-02 has days 01 to 28`},
		{Values{Since: "0000"}, Build, FromFlags, `-since "0000": year 0000: want 0001 to 9999`},
		{Values{Since: "2020", Until: "2019.12"}, Build, FromFlags, "-since 2020 is after -until 2019.12: no game could be kept"},
		{Values{MinRating: "-1"}, Build, FromFlags, "-min-rating -1: " + count},
		// A query of the histories: months.
		{Values{Since: "1870-01-05"}, History, FromFlags, "-since=1870-01-05: want a month YYYY-MM or a year YYYY: the store counts games by month, not by day"},
		{Values{Until: "1870-13"}, History, FromFlags, "-until=1870-13: month 13: want 01 to 12 (a month is YYYY-MM)"},
		{Values{Until: "x"}, History, FromFlags, "-until=x: " + month},
		{Values{Speeds: "fast"}, History, FromFlags, `-speeds=fast: unknown speed "fast"` + speeds},
		{Values{Since: "2024-13"}, History, FromParams, "since=2024-13: month 13: want 01 to 12 (a month is YYYY-MM)"},
		{Values{Since: "2024-05", Until: "2024-01"}, History, FromParams, "bad input: since 2024-05 is after until 2024-01"},
		{Values{Since: "2024", Until: "2023-12"}, History, FromFlags, "bad input: -since 2024 is after -until 2023-12"},
		{Values{Ratings: "1500"}, History, FromParams, `ratings=1500: unknown rating band "1500"` + bands},
		{Values{Speeds: "a b"}, History, FromParams, `speeds="a b": unknown speed "a b"` + speeds},
		{Values{Speeds: strings.Repeat("x", 210)}, History, FromParams, `speeds="` + strings.Repeat("x", 200) + `"... (10 bytes more): unknown speed`},
		// A query of the game index: days.
		{Values{Modes: "ranked"}, Index, FromParams, `modes=ranked: unknown mode "ranked" (want rated, casual)`},
		{Values{Since: "yesterday"}, Index, FromParams, "since=yesterday: " + date},
		{Values{Since: "2020-13"}, Index, FromParams, "since=2020-13: month 13: want 01 to 12"},
		{Values{Since: "2025", Until: "2024"}, Index, FromParams, "bad input: since 2025 is after until 2024"},
		{Values{Since: "2025", Until: "2024"}, Index, FromFlags, "bad input: -since 2025 is after -until 2024"},
		{Values{MinRating: "abc"}, Index, FromParams, "minRating=abc: " + count},
		{Values{MaxPlies: "2000000"}, Index, FromParams, "maxPlies=2000000: " + count},
		{Values{MinRating: "-5"}, Index, FromFlags, "-min-rating=-5: " + count},
		{Values{MinRating: "2500", MaxRating: "2000"}, Index, FromParams, "bad input: minRating 2500 is above maxRating 2000"},
		{Values{MinPlies: "50", MaxPlies: "40"}, Index, FromFlags, "bad input: -min-plies 50 is above -max-plies 40"},
	} {
		_, err := Parse(tc.v, tc.k, tc.src)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || (!strings.HasSuffix(tc.want, "speed") && err.Error() != tc.want) {
			t.Errorf("Parse(%+v, %d, %d): %v; want %q", tc.v, tc.k, tc.src, err, tc.want)
		}
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("Parse(%+v, %d, %d): %v does not match ErrBadInput", tc.v, tc.k, tc.src, err)
		}
	}
	if _, err := Parse(Values{Since: "yesterday"}, Build, FromFlags); !errors.Is(err, ErrDateForm) {
		t.Errorf("-since yesterday: %v does not match ErrDateForm", err)
	}
	var pe *ParamError
	if _, err := Parse(Values{Until: "x"}, Index, FromParams); !errors.As(err, &pe) || pe.Name != "until" || pe.Value != "x" {
		t.Errorf("until=x: %v, want a *ParamError naming until", err)
	}
}

// TestLeaves: each criterion leaves out the games it should, and says so.
func TestLeaves(t *testing.T) {
	blitz2000 := stats.NewCell(stats.Blitz, 6)
	game := Game{Cell: blitz2000, Date: 20240315, WhiteElo: 2050, BlackElo: 1990, Plies: 60}
	for _, tc := range []struct {
		f      Filter
		g      func(*Game)
		reason Reason
		left   bool
	}{
		{Filter{}, nil, 0, false},
		{Filter{StandardStartOnly: true}, nil, 0, false},
		{Filter{StandardStartOnly: true}, func(g *Game) { g.FromFEN = true }, ByStart, true},
		{Filter{MinRating: 2000}, nil, ByRating, true},
		{Filter{MinRating: 1990}, nil, 0, false},
		{Filter{MinRating: -1}, func(g *Game) { g.WhiteElo = 0 }, 0, false},
		{Filter{MaxRating: 2050}, nil, 0, false},
		{Filter{MaxRating: 2049}, nil, ByRating, true},
		{Filter{MaxRating: 3000}, func(g *Game) { g.BlackElo = 0 }, ByRating, true},
		{Filter{Bands: 1 << 6}, nil, 0, false},
		{Filter{Bands: 1 << 7}, nil, ByRating, true},
		{Filter{Bands: 1<<stats.NumRatingBands - 1}, func(g *Game) { g.Cell = stats.NewCell(stats.Blitz, stats.NoRatingBand) }, ByRating, true},
		{Filter{Since: 20240315}, nil, 0, false},
		{Filter{Since: 20240316}, nil, ByDate, true},
		{Filter{Until: 20240314}, nil, ByDate, true},
		{Filter{Since: 20240000}, func(g *Game) { g.Date = 20240000 }, 0, false},
		{Filter{Since: 20240100}, func(g *Game) { g.Date = 20240000 }, ByDate, true},
		{Filter{Until: 20241231}, func(g *Game) { g.Date = 0 }, ByDate, true},
		{Filter{Unit: Months, Since: 20240300, Until: 20240331}, nil, 0, false},
		{Filter{Unit: Months, Since: 20240400}, nil, ByDate, true},
		{Filter{Unit: Months, Until: 20240231}, nil, ByDate, true},
		{Filter{Unit: Months, Since: 50000000}, func(g *Game) { g.Date = 40950000 }, ByDate, true},
		{Filter{Speeds: 1 << stats.Blitz}, nil, 0, false},
		{Filter{Speeds: 1 << stats.Rapid}, nil, BySpeed, true},
		{Filter{Speeds: 1<<stats.NumSpeeds - 1}, func(g *Game) { g.Cell = stats.NewCell(stats.NoSpeed, 6) }, BySpeed, true},
		{Filter{Modes: Rated}, nil, 0, false},
		{Filter{Modes: Casual}, nil, ByMode, true},
		{Filter{Modes: Casual}, func(g *Game) { g.Casual = true }, 0, false},
		{Filter{MinPlies: 61}, nil, ByLength, true},
		{Filter{MaxPlies: 59}, nil, ByLength, true},
		{Filter{MinPlies: 60, MaxPlies: 60}, nil, 0, false},
		// The first criterion that leaves the game out is named.
		{Filter{StandardStartOnly: true, MinRating: 2100, Speeds: 1 << stats.Rapid}, func(g *Game) { g.FromFEN = true }, ByStart, true},
		{Filter{MinRating: 2100, Since: 20250000, Speeds: 1 << stats.Rapid}, nil, ByRating, true},
		{Filter{Since: 20250000, Speeds: 1 << stats.Rapid, Modes: Casual}, nil, ByDate, true},
	} {
		g := game
		if tc.g != nil {
			tc.g(&g)
		}
		reason, left := tc.f.Leaves(&g)
		if reason != tc.reason || left != tc.left || tc.f.Keeps(&g) == left {
			t.Errorf("%+v leaves %+v: %d, %v; want %d, %v", tc.f, g, reason, left, tc.reason, tc.left)
		}
	}
}

// TestKeepsCell: a history's rows by speed, band and month.
func TestKeepsCell(t *testing.T) {
	p := func(y, m int) stats.Period { return stats.Period(y<<4 | m) }
	cell := stats.NewCell(stats.Bullet, 7)
	for _, tc := range []struct {
		f    Filter
		c    stats.Cell
		p    stats.Period
		want bool
	}{
		{Filter{}, cell, 0, true},
		{Filter{Speeds: 1 << stats.Bullet, Bands: 1 << 7}, cell, 0, true},
		{Filter{Speeds: 1 << stats.Blitz}, cell, p(2020, 1), false},
		{Filter{Bands: 1 << 8}, cell, p(2020, 1), false},
		{Filter{Since: 20200000}, cell, p(2020, 0), true},
		{Filter{Since: 20200100}, cell, p(2020, 0), false},
		{Filter{Until: 20200631}, cell, p(2020, 0), true},
		{Filter{Until: 20200631}, cell, p(2020, 6), true},
		{Filter{Until: 20200631}, cell, p(2020, 7), false},
		{Filter{Until: 20200631}, cell, 0, false},
		// Days bounds compare as their months: a history has no days.
		{Filter{Since: 20200615}, cell, p(2020, 6), true},
		{Filter{Unit: Months, Since: 50000000}, cell, p(4095, 12), false},
		// Criteria a history does not know are not asked.
		{Filter{MinRating: 3000, Modes: Casual}, cell, p(2020, 1), true},
	} {
		if got := tc.f.KeepsCell(tc.c, tc.p); got != tc.want {
			t.Errorf("%+v keeps cell %v of %d: %v, want %v", tc.f, tc.c, tc.p, got, tc.want)
		}
	}
}

// TestFilterQueries: IsZero and DatesOnly.
func TestFilterQueries(t *testing.T) {
	for _, tc := range []struct {
		f               Filter
		zero, datesOnly bool
	}{
		{Filter{}, true, true},
		{Filter{Unit: Months}, true, true},
		{Filter{Since: 20200000, Unit: Months}, false, true},
		{Filter{Until: 20200000}, false, true},
		{Filter{Speeds: 1}, false, false},
		{Filter{MaxPlies: 1}, false, false},
		{Filter{StandardStartOnly: true}, false, false},
	} {
		if tc.f.IsZero() != tc.zero || tc.f.DatesOnly() != tc.datesOnly {
			t.Errorf("%+v: IsZero %v, DatesOnly %v; want %v, %v", tc.f, tc.f.IsZero(), tc.f.DatesOnly(), tc.zero, tc.datesOnly)
		}
	}
}

// TestAddFlags: each kind declares the flags asked for, with the help
// texts the commands print, and parses them as Parse does.
func TestAddFlags(t *testing.T) {
	fs := flag.NewFlagSet("bookbuild", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fl := AddFlags(fs, Build, Speeds|Ratings|Dates|MinRating|StandardStart, "keep only games")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if got := strings.Join(names, " "); got != "min-rating ratings since speeds standard-start-only until" {
		t.Errorf("build flags: %s", got)
	}
	for name, want := range map[string]string{
		"since":      "keep only games dated on or after this `DATE`: " + DateForms,
		"until":      "keep only games dated on or before this `DATE` (a year or month: to its end)",
		"ratings":    "keep only games whose players' mean rating is in these `BANDS`: some of " + stats.RatingBandList + " (as bookquery -ratings counts them)",
		"min-rating": "keep only games where both players are rated at least this",
	} {
		if got := fs.Lookup(name).Usage; got != want {
			t.Errorf("-%s: help %q, want %q", name, got, want)
		}
	}
	if err := fs.Parse([]string{"-speeds", "blitz,rapid", "-since", "2024.01", "-min-rating", "2000", "-standard-start-only"}); err != nil {
		t.Fatal(err)
	}
	f, err := fl.Filter()
	want := Filter{Speeds: stats.SpeedSet(0).With(stats.Blitz).With(stats.Rapid), Since: 20240100, MinRating: 2000, StandardStartOnly: true}
	if err != nil || f != want {
		t.Errorf("build flags: %+v, %v; want %+v", f, err, want)
	}

	fs = flag.NewFlagSet("moves", flag.ContinueOnError)
	fl = AddFlags(fs, History, Speeds|Ratings|Dates, "count only games")
	if got := fs.Lookup("since").Usage; !strings.Contains(got, "`MONTH`") {
		t.Errorf("-since of a history query: help %q", got)
	}
	if fs.Lookup("modes") != nil || fs.Lookup("min-rating") != nil {
		t.Error("a history query has -modes or -min-rating")
	}
	if err := fs.Parse([]string{"-since", "2024-01-05"}); err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Filter(); err == nil || !strings.HasPrefix(err.Error(), "-since=2024-01-05: ") {
		t.Errorf("-since 2024-01-05 of a history query: %v", err)
	}
}
