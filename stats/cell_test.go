package stats

import (
	"strings"
	"testing"
)

func TestSpeedOf(t *testing.T) {
	for _, c := range []struct {
		tc   string
		want Speed
		ok   bool
	}{
		{"15+0", UltraBullet, true}, {"29", UltraBullet, true}, {"30", Bullet, true}, {"60+0", Bullet, true}, {"120+1", Bullet, true},
		{"180+0", Blitz, true}, {"180+2", Blitz, true}, {"300+3", Blitz, true}, {"479", Blitz, true},
		{"600+0", Rapid, true}, {"900+10", Rapid, true}, {"1499", Rapid, true}, {"1500", Classical, true}, {"1800+0", Classical, true},
		{"-", Correspondence, true}, {" - ", Correspondence, true},
		{"?", NoSpeed, false}, {"", NoSpeed, false}, {"40/7200:3600", NoSpeed, false}, {"60+x", NoSpeed, false}, {"-60", NoSpeed, false}, {"60+-1", NoSpeed, false},
	} {
		got, ok := SpeedOf([]byte(c.tc))
		if ok != c.ok || got != c.want {
			t.Errorf("SpeedOf(%q) = %v, %v; want %v, %v", c.tc, got, ok, c.want, c.ok)
		}
	}
}

// TestSpeedNames: the names are lichess's (its API's speeds parameter and
// its games' speed field), parsed in any case, and SpeedList lists them.
func TestSpeedNames(t *testing.T) {
	lichess := []string{"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}
	if len(lichess) != NumSpeeds || SpeedList != strings.Join(lichess, ", ") {
		t.Fatalf("SpeedList %q, NumSpeeds %d; want lichess's %v", SpeedList, NumSpeeds, lichess)
	}
	for i, name := range lichess {
		for _, spelling := range []string{name, strings.ToLower(name), strings.ToUpper(name)} {
			s, err := ParseSpeed(spelling)
			if err != nil || s != Speed(i) {
				t.Errorf("ParseSpeed(%q) = %v, %v; want %v", spelling, s, err, Speed(i))
			}
		}
		if got := Speed(i).String(); got != name {
			t.Errorf("Speed(%d).String() = %q, want %q", i, got, name)
		}
	}
	if NoSpeed.String() != "unknown" {
		t.Errorf("NoSpeed.String() = %q", NoSpeed.String())
	}
	for _, bad := range []string{"fast", "ultra bullet", "", "blitz,rapid"} {
		if _, err := ParseSpeed(bad); err == nil || !strings.Contains(err.Error(), `unknown speed "`+bad+`"`) || !strings.Contains(err.Error(), SpeedList) {
			t.Errorf("ParseSpeed(%q): %v; want an unknown speed naming the list", bad, err)
		}
	}
}

func TestParseSpeeds(t *testing.T) {
	for _, c := range []struct {
		list string
		want SpeedSet
		str  string
	}{
		{"", 0, ""}, {" , ", 0, ""},
		{"blitz", 1 << Blitz, "blitz"},
		{"ultraBullet,correspondence", 1<<UltraBullet | 1<<Correspondence, "ultraBullet,correspondence"},
		{"Rapid, blitz,rapid", 1<<Blitz | 1<<Rapid, "blitz,rapid"},
	} {
		got, err := ParseSpeeds(c.list)
		if err != nil || got != c.want || got.String() != c.str {
			t.Errorf("ParseSpeeds(%q) = %b (%q), %v; want %b (%q)", c.list, got, got.String(), err, c.want, c.str)
		}
	}
	if _, err := ParseSpeeds("blitz,fast"); err == nil || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("ParseSpeeds(blitz,fast): %v", err)
	}
	all := SpeedSet(1<<NumSpeeds - 1)
	if all.Has(NoSpeed) || all.With(NoSpeed) != all {
		t.Error("NoSpeed is in a set")
	}
}

func TestRatingBands(t *testing.T) {
	floors := []int{0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500}
	if len(floors) != NumRatingBands {
		t.Fatalf("NumRatingBands %d", NumRatingBands)
	}
	for i, f := range floors {
		b := RatingBand(i)
		if b.Floor() != f || b.String() != strings.TrimSpace(strings.Split(RatingBandList, ",")[i]) {
			t.Errorf("band %d: floor %d, %q; want %d", i, b.Floor(), b.String(), f)
		}
		if got, err := ParseRatingBand(b.String()); err != nil || got != b {
			t.Errorf("ParseRatingBand(%q) = %v, %v", b.String(), got, err)
		}
		// The band of a mean rating: the last floor at or below it.
		if got, ok := RatingBandOf(max(f, 1), f+1); !ok || got != b {
			t.Errorf("RatingBandOf(%d, %d) = %v, %v; want %v", f, f+1, got, ok, b)
		}
		if i > 0 {
			if got, _ := RatingBandOf(f-1, f); got != b-1 { // mean f-1 (rounded down)
				t.Errorf("RatingBandOf(%d, %d) = %v; want %v", f-1, f, got, b-1)
			}
		}
	}
	if b, ok := RatingBandOf(3200, 3000); !ok || b.Floor() != 2500 {
		t.Errorf("RatingBandOf(3200, 3000) = %v, %v", b, ok)
	}
	for _, r := range [][2]int{{0, 2000}, {2000, 0}, {-1, 2000}} {
		if b, ok := RatingBandOf(r[0], r[1]); ok || b != NoRatingBand {
			t.Errorf("RatingBandOf(%d, %d) = %v, %v; want no band", r[0], r[1], b, ok)
		}
	}
	if NoRatingBand.String() != "unknown" || NoRatingBand.Floor() != -1 {
		t.Errorf("NoRatingBand: %q, %d", NoRatingBand.String(), NoRatingBand.Floor())
	}
	bs, err := ParseRatingBands("2500, 2000,2000")
	if err != nil || bs != 1<<6|1<<8 || bs.String() != "2000,2500" || !bs.Has(6) || bs.Has(7) || bs.Has(NoRatingBand) {
		t.Errorf("ParseRatingBands = %b (%q), %v", bs, bs.String(), err)
	}
	for _, bad := range []string{"1500", "x", "2000,2100"} {
		if _, err := ParseRatingBands(bad); err == nil || !strings.Contains(err.Error(), "unknown rating band") || !strings.Contains(err.Error(), RatingBandList) {
			t.Errorf("ParseRatingBands(%q): %v", bad, err)
		}
	}
}

// TestCell: a cell is speed << 4 | band, the number the encoding of a
// History holds (see HistoryVersion): the golden vectors of histories pin
// it down too.
func TestCell(t *testing.T) {
	for _, c := range []struct {
		tc           string
		white, black int
		want         Cell
	}{
		{"300+3", 1500, 1700, Cell(Blitz)<<4 | 4},
		{"-", 2600, 2500, Cell(Correspondence)<<4 | 8},
		{"?", 1500, 1700, 0xf4},
		{"60", 0, 1700, Cell(Bullet)<<4 | 0xf},
		{"", 0, 0, 0xff},
	} {
		got := CellOf([]byte(c.tc), c.white, c.black)
		if got != c.want {
			t.Errorf("CellOf(%q, %d, %d) = %#x, want %#x", c.tc, c.white, c.black, got, c.want)
		}
		s, _ := SpeedOf([]byte(c.tc))
		b, _ := RatingBandOf(c.white, c.black)
		if got.Speed() != s || got.RatingBand() != b || NewCell(s, b) != got {
			t.Errorf("cell %#x: speed %v band %v, want %v %v", got, got.Speed(), got.RatingBand(), s, b)
		}
	}
}
