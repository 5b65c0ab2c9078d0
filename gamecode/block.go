package gamecode

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// Block formats: the first byte of a block.
const (
	blockRaw  = 0 // the records as they are
	blockZstd = 1 // the records compressed with zstd
)

// maxBlockSize bounds a decompressed block.
const maxBlockSize = 64 << 20

// BlockCodec packs several records into one block, compressed with zstd
// when that makes it smaller. A block is: one format byte, then (possibly
// compressed) the uvarint record count, the uvarint length of each record
// and the records. Records are already entropy coded, so zstd rarely pays;
// a block exists for stores that want fewer, larger values. A BlockCodec is
// not safe for concurrent use.
type BlockCodec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
	buf []byte
}

// NewBlockCodec returns a BlockCodec.
func NewBlockCodec() (*BlockCodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("gamecode: zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBlockSize))
	if err != nil {
		return nil, fmt.Errorf("gamecode: zstd decoder: %w", err)
	}
	return &BlockCodec{enc: enc, dec: dec}, nil
}

// Compress appends the block holding records to dst.
func (c *BlockCodec) Compress(dst []byte, records [][]byte) []byte {
	raw := binary.AppendUvarint(c.buf[:0], uint64(len(records)))
	for _, r := range records {
		raw = binary.AppendUvarint(raw, uint64(len(r)))
	}
	for _, r := range records {
		raw = append(raw, r...)
	}
	c.buf = raw
	start := len(dst)
	dst = append(dst, blockZstd)
	dst = c.enc.EncodeAll(raw, dst)
	if len(dst)-start-1 >= len(raw) {
		dst = append(dst[:start], blockRaw)
		dst = append(dst, raw...)
	}
	return dst
}

// Decompress returns the records of a block made by Compress. The records
// share one new buffer.
func (c *BlockCodec) Decompress(b []byte) ([][]byte, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty block", errCorrupt)
	}
	raw := b[1:]
	switch b[0] {
	case blockRaw:
		raw = append([]byte(nil), raw...)
	case blockZstd:
		var err error
		raw, err = c.dec.DecodeAll(raw, nil)
		if err != nil {
			return nil, fmt.Errorf("%w: block: %w", errCorrupt, err)
		}
	default:
		return nil, fmt.Errorf("%w: block format %d", errCorrupt, b[0])
	}
	n, k := binary.Uvarint(raw)
	if k <= 0 || n > uint64(len(raw)) {
		return nil, fmt.Errorf("%w: block record count", errCorrupt)
	}
	raw = raw[k:]
	lens := make([]uint64, n)
	var total uint64
	for i := range lens {
		l, k := binary.Uvarint(raw)
		if k <= 0 || l > uint64(len(raw)) {
			return nil, fmt.Errorf("%w: block record %d length", errCorrupt, i)
		}
		lens[i] = l
		total += l
		raw = raw[k:]
	}
	if total != uint64(len(raw)) {
		return nil, fmt.Errorf("%w: block holds %d bytes of records, want %d", errCorrupt, len(raw), total)
	}
	recs := make([][]byte, n)
	for i, l := range lens {
		recs[i] = raw[:l:l]
		raw = raw[l:]
	}
	return recs, nil
}

// CompressBlock is Compress with a new BlockCodec.
func CompressBlock(records [][]byte) ([]byte, error) {
	c, err := NewBlockCodec()
	if err != nil {
		return nil, err
	}
	return c.Compress(nil, records), nil
}
