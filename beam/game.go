package bookbeam

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Game is one game as it crosses the pipeline's shuffles: where it was
// read (its input's index in the global input order, its number among
// that input's games, its line) and its content id (build.ContentID), with
// the game itself as a gamecode record (tags, start position, moves,
// result: everything a build reads of a game), in the Indexed coding.
type Game struct {
	Input int    // index in Config.Inputs
	Seq   int64  // the game's number in its input, from 0 (games on one line stay ordered)
	Line  int64  // 1-based line where the game starts (the first-seen stamp's)
	ID    uint64 // build.ContentID
	Rec   []byte // gamecode record
}

// before reports whether g comes before h in the global input order.
func (g *Game) before(h *Game) bool {
	if g.Input != h.Input {
		return g.Input < h.Input
	}
	return g.Seq < h.Seq
}

func init() {
	beam.RegisterCoder(reflect.TypeOf(Game{}), encodeGame, decodeGame)
}

// encodeGame is Game's coder: uvarints Input, Seq and Line, ID in 8
// bytes, then the record.
func encodeGame(g Game) []byte {
	b := make([]byte, 0, 3*binary.MaxVarintLen32+8+len(g.Rec))
	return appendGame(b, &g)
}

func appendGame(b []byte, g *Game) []byte {
	b = binary.AppendUvarint(b, uint64(g.Input))
	b = binary.AppendUvarint(b, uint64(g.Seq))
	b = binary.AppendUvarint(b, uint64(g.Line))
	b = binary.BigEndian.AppendUint64(b, g.ID)
	return append(b, g.Rec...)
}

// encodedSize is len(encodeGame(g)).
func encodedSize(g *Game) int64 {
	return int64(uvarintLen(uint64(g.Input)) + uvarintLen(uint64(g.Seq)) + uvarintLen(uint64(g.Line)) + 8 + len(g.Rec))
}

func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

var errShortGame = errors.New("bookbeam: truncated game element")

// decodeGame reads what encodeGame wrote.
func decodeGame(b []byte) (Game, error) {
	var g Game
	var v [3]uint64
	for i := range v {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			return g, errShortGame
		}
		v[i], b = x, b[n:]
	}
	if len(b) < 8 {
		return g, errShortGame
	}
	g.Input, g.Seq, g.Line = int(v[0]), int64(v[1]), int64(v[2])
	g.ID = binary.BigEndian.Uint64(b)
	g.Rec = b[8:]
	return g, nil
}

// ShardOf returns the shard of content id id among n shards: shards are
// ranges of the id space, shard i holding ids from i·2⁶⁴/n on.
func ShardOf(id uint64, n int) int {
	hi, _ := bits.Mul64(id, uint64(n))
	return int(hi)
}

// shardName is the directory of shard i in the work directory.
func shardName(i int) string { return fmt.Sprintf("shard-%04d", i) }
