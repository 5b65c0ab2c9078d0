package stats_test

import (
	"fmt"

	"github.com/chessbook/chessbook/stats"
)

// The speeds and rating bands of lichess, as the filters read them, and
// the cell of a game: a blitz game (5+3: 300 + 40*3 = 420 s) between
// players rated 1850 and 2010 (mean 1930: the 1800 band).
func ExampleCellOf() {
	speeds, err := stats.ParseSpeeds("blitz,ultraBullet")
	if err != nil {
		panic(err)
	}
	bands, err := stats.ParseRatingBands("1800,2000")
	if err != nil {
		panic(err)
	}
	c := stats.CellOf([]byte("300+3"), 1850, 2010)
	fmt.Println(c.Speed(), c.RatingBand(), speeds.Has(c.Speed()), bands.Has(c.RatingBand()))
	fmt.Println(speeds, bands)
	_, err = stats.ParseSpeeds("fast")
	fmt.Println(err)
	// Output:
	// blitz 1800 true true
	// ultraBullet,blitz 1800,2000
	// unknown speed "fast" (want some of ultraBullet, bullet, blitz, rapid, classical, correspondence)
}
