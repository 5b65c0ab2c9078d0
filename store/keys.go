package store

// The prefixes as bytes, for this package's keys; the kinds are in the
// registry (kinds.go).
const (
	prefixEP       = byte(KindEnPassant)
	prefixGame     = byte(KindGame)
	prefixHistory  = byte(KindHistory)
	prefixMeta     = byte(KindMeta)
	prefixNumber   = byte(KindGameNumber)
	prefixOrder    = byte(KindGameOrder)
	prefixPosition = byte(KindPosition)
	prefixSingle   = byte(KindSingles)
	prefixIndex    = byte(KindIndex)
)

// metaKey is the key of the Meta record.
const metaKey = string(rune(prefixMeta))

// positionKey appends the store key of the position key pos to dst.
func positionKey(dst, pos []byte) []byte {
	dst = append(dst, prefixPosition)
	return append(dst, pos...)
}

// positionBounds returns the [lower, upper) bounds of all position keys.
func positionBounds() (lower, upper []byte) {
	return []byte{prefixPosition}, []byte{prefixPosition + 1}
}
