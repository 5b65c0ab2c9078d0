package savings

import "math"

// dist is a weighted distribution of sizes in bits, kept as a fixed-width
// histogram (Scale bins per bit) with the exact count, sum, minimum and
// maximum: quantiles are exact to 1/Scale bit, the mean is exact, and
// memory does not grow with the number of samples. The zero dist has
// Scale 1.
type dist struct {
	Scale float64 // bins per bit; 0 means 1
	N     uint64  // total weight
	Sum   float64 // sum of weight * value
	Min   float64
	Max   float64
	Bins  []uint64 // weight per bin: bin i holds values rounding to i/Scale
}

func (d *dist) scale() float64 {
	if d.Scale <= 0 {
		return 1
	}
	return d.Scale
}

// Add adds a sample of value v (>= 0) and weight w.
func (d *dist) Add(v float64, w uint64) {
	if w == 0 {
		return
	}
	i := int(v*d.scale() + 0.5)
	if i >= len(d.Bins) {
		if i >= cap(d.Bins) {
			nb := make([]uint64, i+1, 2*i+64)
			copy(nb, d.Bins)
			d.Bins = nb
		} else {
			d.Bins = d.Bins[:i+1]
		}
	}
	d.Bins[i] += w
	if d.N == 0 || v < d.Min {
		d.Min = v
	}
	if v > d.Max {
		d.Max = v
	}
	d.N += w
	d.Sum += v * float64(w)
}

// Merge adds o's samples to d (same Scale).
func (d *dist) Merge(o *dist) {
	if o.N == 0 {
		return
	}
	if d.N == 0 || o.Min < d.Min {
		d.Min = o.Min
	}
	if o.Max > d.Max {
		d.Max = o.Max
	}
	d.N += o.N
	d.Sum += o.Sum
	if len(o.Bins) > len(d.Bins) {
		nb := make([]uint64, len(o.Bins))
		copy(nb, d.Bins)
		d.Bins = nb
	}
	for i, w := range o.Bins {
		d.Bins[i] += w
	}
}

// Mean returns the weighted mean, NaN when empty.
func (d *dist) Mean() float64 {
	if d.N == 0 {
		return math.NaN()
	}
	return d.Sum / float64(d.N)
}

// Quantile returns the smallest histogram value v such that at least
// q of the weight is at or below v (q = 0.5: the median), NaN when empty.
func (d *dist) Quantile(q float64) float64 {
	if d.N == 0 {
		return math.NaN()
	}
	target := q * float64(d.N)
	var cum float64
	for i, w := range d.Bins {
		cum += float64(w)
		if cum >= target && w > 0 {
			return math.Min(math.Max(float64(i)/d.scale(), d.Min), d.Max)
		}
	}
	return d.Max
}

// Stat is the summary of a dist that the report prints.
type Stat struct {
	Count  uint64  `json:"count"` // samples (weighted)
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	P5     float64 `json:"p5"`
	P25    float64 `json:"p25"`
	P75    float64 `json:"p75"`
	P95    float64 `json:"p95"`
}

// Stat summarises d.
func (d *dist) Stat() Stat {
	if d.N == 0 {
		return Stat{}
	}
	return Stat{
		Count: d.N, Mean: d.Mean(), Median: d.Quantile(0.5), Min: d.Min, Max: d.Max,
		P5: d.Quantile(0.05), P25: d.Quantile(0.25), P75: d.Quantile(0.75), P95: d.Quantile(0.95),
	}
}
