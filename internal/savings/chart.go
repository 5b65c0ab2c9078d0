package savings

import (
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// WriteSVGFile writes the chart (see writeSVG) to the file at path.
func (r *Report) WriteSVGFile(path string) error {
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	if err := r.writeSVG(out); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	return nil
}

// writeSVG draws the distributions as box plots, one panel for the
// positions and one for the moves: whiskers from the 5th to the 95th
// percentile, a box from the 25th to the 75th, the median as a bar, the
// mean as a dot and the maximum as a red tick.
func (r *Report) writeSVG(w io.Writer) error {
	const (
		left, plotW, rowH, top = 170, 720, 22, 60
		width                  = left + plotW + 90
	)
	var b strings.Builder
	type panel struct {
		title string
		rows  []Row
	}
	// Only rows with a distribution are drawn, and the titles name only
	// what is drawn.
	drawn := func(rows []Row) []Row {
		var out []Row
		for _, row := range rows {
			if !row.TotalOnly && row.All.Count > 0 {
				out = append(out, row)
			}
		}
		return out
	}
	moveRows := drawn(r.MoveRows)
	moveTitle := "Moves: bits per move"
	for _, row := range moveRows {
		if row.Unit == "bits per move (per game)" {
			moveTitle += " (game codes: each game's mean, weighted by its moves)"
			break
		}
	}
	panels := []panel{
		{"Positions: bits per position", drawn(r.PositionRows)},
		{moveTitle, moveRows},
	}
	// Each panel takes its title (30), its rows, the axis (4) and a gap
	// (40) holding the axis labels (baseline at 14); the last ends below
	// its labels.
	height := top
	for _, p := range panels {
		height += 30 + rowH*len(p.rows) + 4 + 40
	}
	height += 14 + 10 - 40
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="16" font-weight="bold">Storage savings: %s</text>`+"\n", left-150, html.EscapeString(chartTitle(r.Inputs)))
	fmt.Fprintf(&b, `<text x="%d" y="44" fill="#555">%s samples; whiskers 5-95%%, box 25-75%%, bar median, dot mean, red tick max</text>`+"\n",
		left-150, html.EscapeString(count(r.Positions)+" position / "+count(r.Moves)+" move"))
	y := top
	for _, p := range panels {
		xmax := 0.0
		for _, row := range p.rows {
			xmax = math.Max(xmax, row.All.Max)
		}
		step := niceStep(xmax / 8)
		xmax = math.Ceil(xmax/step) * step
		if xmax <= 0 {
			xmax, step = 1, 1
		}
		x := func(v float64) float64 { return left + plotW*v/xmax }
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", left-150, y+16, html.EscapeString(p.title))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#555">mean</text>`+"\n", width-10, y+16)
		y += 30
		axisY := y + rowH*len(p.rows) + 4
		for v := 0.0; v <= xmax+step/2; v += step {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(v), y, x(v), axisY)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", x(v), axisY+14, num(v))
		}
		for i, row := range p.rows {
			cy := float64(y + rowH*i + rowH/2)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-8, cy, html.EscapeString(row.ID))
			s := row.All
			if s.Count == 0 {
				continue
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", x(s.P5), cy, x(s.P95), cy)
			for _, v := range []float64{s.P5, s.P95} {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>`+"\n", x(v), cy-5, x(v), cy+5)
			}
			fill := "#9ecae1"
			if !row.Lossless {
				fill = "#ddd"
			}
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="14" fill="%s" stroke="#333"/>`+"\n", x(s.P25), cy-7, math.Max(x(s.P75)-x(s.P25), 1), fill)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" stroke-width="2"/>`+"\n", x(s.Median), cy-7, x(s.Median), cy+7)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#e6550d"/>`+"\n", x(s.Mean), cy)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d62728" stroke-width="2"/>`+"\n", x(s.Max), cy-7, x(s.Max), cy+7)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle" fill="#555">%.1f</text>`+"\n", width-10, cy, s.Mean)
		}
		y = axisY + 40
	}
	b.WriteString("</svg>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("savings: writing the chart: %w", err)
	}
	return nil
}

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// chartTitle names the inputs by their base names, cut to fit the title.
func chartTitle(inputs []string) string {
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = filepath.Base(in)
	}
	t := strings.Join(names, " ")
	if len(t) > 90 {
		t = t[:87] + "..."
	}
	return t
}
