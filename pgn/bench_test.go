package pgn

import (
	"bytes"
	"github.com/chessbook/chessbook/internal/testutil"
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// nopVisitor wants everything and does nothing with it.
type nopVisitor struct{ sans int }

func (*nopVisitor) BeginGame(int)          {}
func (*nopVisitor) Tag(_, _ []byte)        {}
func (*nopVisitor) BeginMovetext() bool    { return true }
func (v *nopVisitor) SAN([]byte, int) bool { v.sans++; return true }
func (*nopVisitor) Outcome(Result)         {}
func (*nopVisitor) ParseError(int, string) {}
func (*nopVisitor) EndGame()               {}

var benchData struct {
	sync.Mutex
	m map[string][]byte
}

// benchCorpus returns a medium corpus decompressed in memory.
func benchCorpus(b *testing.B, name string) []byte {
	benchData.Lock()
	defer benchData.Unlock()
	if data, ok := benchData.m[name]; ok {
		return data
	}
	data := pgnReadAll(b, filepath.Join(testutil.SharedData(b), "medium", name))
	if benchData.m == nil {
		benchData.m = map[string][]byte{}
	}
	benchData.m[name] = data
	return data
}

var benchCorpora = []struct{ name, file string }{
	{"pgnmentor", "pgnmentor_world_champions_16players.pgn.zst"},
	{"lichess", "lichess_10k.pgn.zst"},
}

// BenchmarkParse parses a whole decompressed corpus held in memory with
// one reused Parser.
func BenchmarkParse(b *testing.B) {
	for _, c := range benchCorpora {
		b.Run(c.name, func(b *testing.B) {
			data := benchCorpus(b, c.file)
			var p Parser
			var v nopVisitor
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				p.Parse(data, 1, &v)
			}
		})
	}
}

// BenchmarkSplitter cuts a corpus held in memory into chunks, reusing one
// chunk buffer.
func BenchmarkSplitter(b *testing.B) {
	for _, c := range benchCorpora {
		b.Run(c.name, func(b *testing.B) {
			data := benchCorpus(b, c.file)
			buf := make([]byte, 0, DefaultChunkSize+splitReadSize)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				sp := NewSplitter(bytes.NewReader(data))
				for {
					chunk, _, err := sp.Next(buf)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					buf = chunk[:0]
				}
			}
		})
	}
}

// BenchmarkRead is Read, the Splitter feeding one Parser, on a corpus held
// in memory.
func BenchmarkRead(b *testing.B) {
	for _, c := range benchCorpora {
		b.Run(c.name, func(b *testing.B) {
			data := benchCorpus(b, c.file)
			var v nopVisitor
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := Read(bytes.NewReader(data), &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
