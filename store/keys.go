package store

// Key prefixes; see the package documentation for the schema.
const (
	prefixEP       = 'e'
	prefixGame     = 'g'
	prefixHistory  = 'h'
	prefixMeta     = 'm'
	prefixNumber   = 'n'
	prefixOrder    = 'o'
	prefixPosition = 'p'
	prefixSingle   = 'q'
	prefixIndex    = 'x'
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
