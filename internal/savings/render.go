package savings

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Format is an output format of the report.
type Format string

// The formats Write knows.
const (
	FormatText     Format = "text"
	FormatMarkdown Format = "markdown"
	FormatJSON     Format = "json"
)

// ParseFormat checks a -format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case FormatText, FormatMarkdown, FormatJSON:
		return f, nil
	}
	return "", fmt.Errorf("format %q: want text, markdown or json", s)
}

// Write prints the report in format f. command, when not empty, is printed
// as the command that made the report.
func (r *Report) Write(w io.Writer, f Format, command string) error {
	if f == FormatJSON {
		v := struct {
			Command string `json:"command,omitempty"`
			*Report
		}{command, r}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("savings: writing JSON: %w", err)
		}
		return nil
	}
	var b strings.Builder
	t := &tables{b: &b, md: f == FormatMarkdown}
	r.writeText(t, command)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("savings: writing the report: %w", err)
	}
	return nil
}

// tables writes headings, paragraphs and tables as text or Markdown.
type tables struct {
	b  *strings.Builder
	md bool
}

func (t *tables) heading(s string) {
	if t.md {
		fmt.Fprintf(t.b, "\n## %s\n\n", s)
	} else {
		fmt.Fprintf(t.b, "\n%s\n%s\n", s, strings.Repeat("=", len(s)))
	}
}

func (t *tables) para(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if t.md {
		fmt.Fprintf(t.b, "%s\n\n", s)
	} else {
		fmt.Fprintf(t.b, "%s\n", s)
	}
}

// table writes rows under head; columns whose head starts with '>' are
// right-aligned (numbers).
func (t *tables) table(head []string, rows [][]string) {
	right := make([]bool, len(head))
	h := make([]string, len(head))
	for i, c := range head {
		right[i] = strings.HasPrefix(c, ">")
		h[i] = strings.TrimPrefix(c, ">")
	}
	if t.md {
		fmt.Fprintf(t.b, "| %s |\n|", strings.Join(h, " | "))
		for i := range h {
			if right[i] {
				t.b.WriteString("---:|")
			} else {
				t.b.WriteString("---|")
			}
		}
		t.b.WriteString("\n")
		for _, r := range rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = strings.ReplaceAll(c, "|", "\\|")
			}
			fmt.Fprintf(t.b, "| %s |\n", strings.Join(cells, " | "))
		}
		t.b.WriteString("\n")
		return
	}
	width := make([]int, len(h))
	for i, c := range h {
		width[i] = len(c)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(width) && len(c) > width[i] && !(i == len(width)-1 && !right[i]) {
				width[i] = len(c)
			}
		}
	}
	line := func(cells []string) {
		var parts []string
		for i, c := range cells {
			switch {
			case i == len(cells)-1 && !right[i]:
				parts = append(parts, c)
			case right[i]:
				parts = append(parts, fmt.Sprintf("%*s", width[i], c))
			default:
				parts = append(parts, fmt.Sprintf("%-*s", width[i], c))
			}
		}
		t.b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
	}
	line(h)
	seps := make([]string, len(h))
	for i := range h {
		seps[i] = strings.Repeat("-", width[i])
	}
	line(seps)
	for _, r := range rows {
		line(r)
	}
}

// num formats a size: whole numbers without decimals, others with one or
// two.
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// count formats a count with thousands separators.
func count(n uint64) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// bytesText formats a byte count.
func bytesText(v float64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.2f GiB", v/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.1f KiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f B", v)
}

// mmm formats a Stat as "mean / median / max".
func mmm(s Stat) string {
	if s.Count == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f / %s / %s", s.Mean, num(s.Median), num(s.Max))
}

// writeText writes the report as text or Markdown (t.md), section by
// section. command, when not empty, is printed as the command that made
// the report.
func (r *Report) writeText(t *tables, command string) {
	r.writeHeader(t, command)
	r.writePositions(t)
	r.writePositionBands(t)
	r.writeMoves(t)
	r.writeMoveBands(t)
	r.writeDisk(t)
	r.writeHashes(t)
	r.writeClaims(t)
	r.writeNotes(t)
}

// writeHeader writes the title, the command, the inputs, the counts and
// the weighting.
func (r *Report) writeHeader(t *tables, command string) {
	title := "Storage savings: every encoding from the seeds, side by side"
	if t.md {
		fmt.Fprintf(t.b, "# %s\n\n", title)
	} else {
		fmt.Fprintf(t.b, "%s\n%s\n\n", title, strings.Repeat("=", len(title)))
	}
	if command != "" {
		if t.md {
			t.para("Command: `%s`", command)
		} else {
			t.para("command:   %s", command)
		}
	}
	src := "PGN"
	if r.Source == "store" {
		src = "store"
	}
	t.para("%s: %s", src, strings.Join(r.Inputs, " "))
	games := count(r.Games) + " games"
	if r.SkippedGames > 0 {
		games += fmt.Sprintf(" (%d skipped: not replayable)", r.SkippedGames)
	}
	if r.DuplicateGames > 0 {
		games += fmt.Sprintf(" (%s copies of games skipped)", count(r.DuplicateGames))
	}
	t.para("%s; %s position samples, %s move samples; %s distinct positions, %s position-move entries", games,
		count(r.Positions), count(r.Moves), count(r.Distinct), count(r.Entries))
	t.para("weighting: %s; bands by %s; %.1f s", r.Weighting, r.BandKind, r.ElapsedSeconds)
}

// writePositions writes the table of the position encodings, overall.
func (r *Report) writePositions(t *tables) {
	key := r.row("key")
	fen := r.row("fen")
	t.heading("Positions: bits per position")
	var rows [][]string
	for _, row := range r.PositionRows {
		lossless := "yes"
		if !row.Lossless {
			lossless = "no (hash)"
		}
		xkey, vsFEN := "-", "-"
		if key != nil && key.All.Mean > 0 && row.All.Count > 0 {
			xkey = fmt.Sprintf("%.2f", row.All.Mean/key.All.Mean)
		}
		if fen != nil && fen.All.Mean > 0 && row.All.Count > 0 {
			vsFEN = fmt.Sprintf("%.0f%%", 100*(1-row.All.Mean/fen.All.Mean))
		}
		unrep := "0"
		if row.Unrepresentable > 0 {
			unrep = count(row.Unrepresentable)
		}
		rows = append(rows, []string{row.ID, row.Seed, row.Name, row.Keeps, lossless, fmt.Sprintf("%.1f", row.All.Mean), num(row.All.Median),
			num(row.All.Max), num(row.All.Min), xkey, vsFEN, unrep})
	}
	t.table([]string{"encoding", "seed", "what", "keeps", "lossless", ">mean", ">median", ">max", ">min", ">x key", ">saves vs FEN", ">not representable"}, rows)
}

// writePositionBands writes the position encodings by band.
func (r *Report) writePositionBands(t *tables) {
	t.heading("Positions by band: mean / median / max bits")
	head, rows := r.bandTable(r.PositionRows)
	var counts []string
	for b := range r.Bands {
		if len(r.PositionRows) > 0 && b < len(r.PositionRows[0].Bands) {
			counts = append(counts, count(r.PositionRows[0].Bands[b].Count))
		}
	}
	rows = append(rows, append(append([]string{"(samples)"}, counts...), count(r.Positions)))
	t.table(head, rows)
}

// writeMoves writes the table of the move and game codes, overall, with
// the input file's own size per move.
func (r *Report) writeMoves(t *tables) {
	t.heading("Moves and games: bits per move")
	var rows [][]string
	for _, row := range r.MoveRows {
		med, mx := num(row.All.Median), num(row.All.Max)
		if row.TotalOnly {
			med, mx = "-", "-"
		}
		bpg := "-"
		if row.BytesPerGame > 0 {
			bpg = fmt.Sprintf("%.1f", row.BytesPerGame)
		}
		note := row.Note
		if row.Unrepresentable > 0 {
			note = strings.TrimPrefix(note+"; "+count(row.Unrepresentable)+" games failed", "; ")
		}
		rows = append(rows, []string{row.ID, row.Seed, row.Name, fmt.Sprintf("%.2f", row.All.Mean), med, mx, bpg, note})
	}
	for _, d := range r.Disk {
		if d.BitsPerMove > 0 {
			rows = append(rows, []string{"input", "-", d.What, fmt.Sprintf("%.2f", d.BitsPerMove), "-", "-", fmt.Sprintf("%.1f", d.PerGame), "the file as given"})
		}
	}
	t.table([]string{"encoding", "seed", "what", ">mean", ">median", ">max", ">bytes/game", "note"}, rows)
}

// writeMoveBands writes the move codes by band.
func (r *Report) writeMoveBands(t *tables) {
	t.heading("Moves by band: mean / median / max bits")
	t.table(r.bandTable(r.MoveRows))
}

// bandTable returns the head and the rows of a table of mean / median /
// max by band and overall, one row per encoding of rows that has bands.
func (r *Report) bandTable(rows []Row) ([]string, [][]string) {
	head := append([]string{"encoding"}, prefixed(r.Bands)...)
	head = append(head, ">all")
	var out [][]string
	for _, row := range rows {
		if len(row.Bands) == 0 {
			continue
		}
		cells := []string{row.ID}
		for _, s := range row.Bands {
			cells = append(cells, mmm(s))
		}
		out = append(out, append(cells, mmm(row.All)))
	}
	return head, out
}

// writeDisk writes the sizes on disk.
func (r *Report) writeDisk(t *tables) {
	t.heading("On disk")
	var rows [][]string
	opt := func(v float64, f string) string {
		if v == 0 {
			return "-"
		}
		return fmt.Sprintf(f, v)
	}
	for _, d := range r.Disk {
		rows = append(rows, []string{d.What, bytesText(d.Bytes), opt(d.PerPosition, "%.2f"), opt(d.PerEntry, "%.2f"),
			opt(d.PerGame, "%.1f"), opt(d.BitsPerMove, "%.2f"), d.Note})
	}
	t.table([]string{"what", ">size", ">bytes/distinct position", ">bytes/entry", ">bytes/game", ">bits/move", "note"}, rows)
}

// writeHashes writes the collisions of the lossy hashes.
func (r *Report) writeHashes(t *tables) {
	t.heading("Hashes (lossy references): collisions among the distinct positions")
	var rows [][]string
	for _, h := range r.Hashes {
		rows = append(rows, []string{h.ID, fmt.Sprint(h.Bits), count(h.Positions), count(h.Values), count(h.Collisions), fmt.Sprintf("%.2g", h.Expected)})
	}
	t.table([]string{"hash", ">bits", ">positions", ">distinct values", ">collisions", ">expected (birthday)"}, rows)
	for _, h := range r.Hashes {
		for _, e := range h.Examples {
			t.para("%s collision: %s", h.ID, e)
		}
	}
}

// writeClaims writes the seeds' claims checked.
func (r *Report) writeClaims(t *tables) {
	t.heading("Seed claims")
	var rows [][]string
	for _, c := range r.Claims {
		rows = append(rows, []string{c.Seed, c.Claim, c.Expected, c.Got, c.Verdict, c.Note})
	}
	t.table([]string{"seed", "claim", "seed says", "we get", "verdict", "note"}, rows)
}

// writeNotes writes the notes: the report's own, the extremes seen and
// the standard ones.
func (r *Report) writeNotes(t *tables) {
	t.heading("Notes")
	notes := append([]string{}, r.Notes...)
	if r.EPCandidatesMax > 0 {
		notes = append(notes, fmt.Sprintf("most en-passant candidates in one position: %d (%s)", r.EPCandidatesMax, r.EPCandidatesFEN))
	}
	if r.LegalMovesMax > 0 {
		notes = append(notes, fmt.Sprintf("most legal moves in one position: %d (%s)", r.LegalMovesMax, r.LegalMovesFEN))
	}
	for _, row := range r.PositionRows {
		if row.MaxFEN != "" && row.Lossless {
			notes = append(notes, fmt.Sprintf("largest %s: %s bits at %s", row.ID, num(row.All.Max), row.MaxFEN))
		}
	}
	notes = append(notes, standardNotes...)
	for _, n := range notes {
		fmt.Fprintf(t.b, "- %s\n", n) // a list in Markdown too
	}
}

// prefixed marks band columns as numeric (right-aligned).
func prefixed(bands []string) []string {
	out := make([]string, len(bands))
	for i, b := range bands {
		out[i] = ">" + b
	}
	return out
}

// standardNotes explain the choices behind every figure.
var standardNotes = []string{
	"every lossless code keeps the position identity: placement, side to move, castling rights, and the en-passant square only when a capture is legal (the store's key rule); codes keeping the fifty-move clock say so",
	"seed 002's board-only codes (nibbles aside) get the common state suffix: side 1 bit, 1 bit per castling right whose king and rook are home, 3 en-passant bits when candidates exist (seed 000's rules)",
	"bit-level codes are counted at their exact length; keys, FEN, text and gamecode in whole bytes",
	"move codes leave out the game framing (ply count, result, start); gamecode and zstd include theirs",
}
