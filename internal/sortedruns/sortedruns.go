// Package sortedruns merges a slice made of increasing runs into one
// sorted slice: the merge operators' and the builder's way to combine
// operands that are each sorted already, a pass per doubling of the runs
// instead of a sort.
package sortedruns

// Merge sorts v, made of runs each sorted by cmp that end at ends (the
// last at len(v)), by merging neighbouring runs until one is left, with
// scratch as the other buffer (grown when short). Equal elements keep
// their order. It returns the sorted slice and the other buffer, to keep;
// ends is used as scratch too.
func Merge[T any](v []T, ends []int, scratch []T, cmp func(a, b *T) int) (sorted, other []T) {
	if cap(scratch) < len(v) {
		scratch = make([]T, len(v), cap(v))
	}
	src, dst := v, scratch[:len(v)]
	for len(ends) > 1 {
		next := ends[:0]
		lo := 0
		for i := 0; i < len(ends); i += 2 {
			if i+1 == len(ends) {
				copy(dst[lo:ends[i]], src[lo:ends[i]])
				next = append(next, ends[i])
				break
			}
			a, b := src[lo:ends[i]], src[ends[i]:ends[i+1]]
			k := lo
			for len(a) > 0 && len(b) > 0 {
				if cmp(&a[0], &b[0]) <= 0 {
					dst[k] = a[0]
					a = a[1:]
				} else {
					dst[k] = b[0]
					b = b[1:]
				}
				k++
			}
			k += copy(dst[k:], a)
			copy(dst[k:], b)
			lo = ends[i+1]
			next = append(next, ends[i+1])
		}
		ends = next
		src, dst = dst, src
	}
	return src, dst[:0]
}
