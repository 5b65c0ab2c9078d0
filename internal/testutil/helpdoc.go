package testutil

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The commands' help is documented in docs/commands.md, one section per
// command holding what its -h prints; the commands' tests compare the two
// (CheckHelpDoc) and check that every flag README's examples use exists
// (READMEFlags), so that help, reference and README cannot drift apart.

// CheckHelpDoc compares help, what 'name -h' prints, with the section
// "## name" of the reference file path; with update it rewrites the
// section instead (adding it at the end when missing).
func CheckHelpDoc(t *testing.T, path, name, help string, update bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !(update && os.IsNotExist(err)) {
		t.Fatal(err)
	}
	doc := string(b)
	head := "## " + name + "\n\n```text\n"
	body := strings.TrimRight(help, "\n") + "\n```\n"
	i := strings.Index(doc, head)
	if i < 0 {
		if !update {
			t.Errorf("%s has no section for %q: run the test with -update-help", path, name)
			return
		}
		doc = strings.TrimRight(doc, "\n") + "\n\n" + head + body
	} else {
		start := i + len(head)
		end := strings.Index(doc[start:], "```\n")
		if end < 0 {
			t.Fatalf("%s: the section of %q does not end", path, name)
		}
		if got := doc[start : start+end+len("```\n")]; got == body {
			return
		} else if !update {
			t.Errorf("%s: the help of %q differs from its section (run the test with -update-help):\n--- help\n%s--- documented\n%s", path, name, body, got)
			return
		}
		doc = doc[:start] + body + doc[start+end+len("```\n"):]
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FlagNames returns the flags a -h text lists ("  -db string" lines).
func FlagNames(help string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([\w-]+)`).FindAllStringSubmatch(help, -1) {
		out[m[1]] = true
	}
	return out
}

// READMEFlags returns, for every example line of README's code blocks
// that runs prog ("bookquery -db DIR moves -fen ..."), the subcommand
// (the first word after prog and its global flags that is not a flag or a
// flag's value, "" for none) and the flags the line uses.
func READMEFlags(t *testing.T, readme, prog string, globalWithValue map[string]bool) []READMELine {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	var out []READMELine
	inBlock := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		for _, cmd := range strings.Split(line, "&&") {
			cmd, _, _ = strings.Cut(cmd, "#") // a comment
			fields := strings.Fields(cmd)
			for len(fields) > 0 && fields[0] != prog && !strings.HasSuffix(fields[0], "/"+prog) {
				fields = fields[1:]
			}
			if len(fields) == 0 {
				continue
			}
			l := READMELine{Text: strings.TrimSpace(cmd)}
			for i := 1; i < len(fields); i++ {
				f := fields[i]
				switch {
				case strings.HasPrefix(f, "[-") || strings.HasPrefix(f, "-") && len(f) > 1 && f[1] != '-' && !strings.ContainsAny(f[1:2], "0123456789"):
					name := strings.TrimLeft(strings.Trim(f, "[]|"), "-")
					name, _, _ = strings.Cut(name, "=")
					name, _, _ = strings.Cut(name, "|")
					if name == "" {
						continue
					}
					if l.Sub == "" && globalWithValue[name] {
						i++ // the global flag's value
						continue
					}
					l.Flags = append(l.Flags, name)
				case l.Sub == "" && len(l.Flags) == 0 && regexp.MustCompile(`^[a-z]+$`).MatchString(f):
					l.Sub = f
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// READMELine is one example of README: see READMEFlags.
type READMELine struct {
	Text  string
	Sub   string
	Flags []string
}

// String describes the line for an error message.
func (l READMELine) String() string { return fmt.Sprintf("%q", l.Text) }
