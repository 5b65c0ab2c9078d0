// Package lichessschema validates JSON answers against the lichess API's
// own OpenAPI schemas for the opening explorer (the copies in
// ../shared/spec/lichess-api beside the module). An answer of ours is
// compatible with lichess's typed clients when it validates: the schemas
// are JSON Schema 2020-12 (OpenAPI 3.1) documents written in YAML whose
// $refs name sibling files.
package lichessschema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/testutil"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// Schema names of the answers the explorer's endpoints give.
const (
	Lichess     = "OpeningExplorerLichess"     // GET /lichess
	Masters     = "OpeningExplorerMasters"     // GET /masters
	Player      = "OpeningExplorerPlayer"      // GET /player, each ndjson line
	LichessGame = "OpeningExplorerLichessGame" // a game in /lichess's lists
)

// Validator validates documents against the schemas of one folder.
type Validator struct {
	dir     string
	schemas map[string]*jsonschema.Schema
}

// Load compiles every *.yaml schema of dir (endpoint files excepted).
func Load(dir string) (*Validator, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("lichessschema: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("lichessschema: no *.yaml schema in %s", dir)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("lichessschema: %w", err)
	}
	var names []string
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "endpoint-") {
			continue // OpenAPI path items, not schemas
		}
		y, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("lichessschema: %w", err)
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			return nil, fmt.Errorf("lichessschema: %s: %w", f, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			return nil, fmt.Errorf("lichessschema: %s: %w", f, err)
		}
		if err := c.AddResource(fileURL(abs, base), doc); err != nil {
			return nil, fmt.Errorf("lichessschema: %s: %w", f, err)
		}
		names = append(names, strings.TrimSuffix(base, ".yaml"))
	}
	v := &Validator{dir: abs, schemas: map[string]*jsonschema.Schema{}}
	for _, n := range names {
		s, err := c.Compile(fileURL(abs, n+".yaml"))
		if err != nil {
			return nil, fmt.Errorf("lichessschema: compiling %s: %w", n, err)
		}
		v.schemas[n] = s
	}
	return v, nil
}

func fileURL(dir, base string) string {
	return "file://" + filepath.ToSlash(filepath.Join(dir, base))
}

// Validate checks the JSON document doc against the named schema (a file
// name without .yaml, such as [Lichess]); the error lists every violation
// with its place in the document.
func (v *Validator) Validate(schema string, doc []byte) error {
	s, ok := v.schemas[schema]
	if !ok {
		return fmt.Errorf("lichessschema: no schema %q in %s", schema, v.dir)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("lichessschema: not JSON: %w", err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("not valid under %s: %v", schema, err)
	}
	return nil
}

// ForTest loads the shared copies of the schemas (../shared/spec/lichess-api
// beside the module), skipping the test (failing it under CHESSBOOK_REQUIRE_DATA=1) when
// they are absent ([testutil.SharedSpec]).
func ForTest(tb testing.TB) *Validator {
	tb.Helper()
	v, err := Load(testutil.SharedSpec(tb, "lichess-api"))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// Params returns the names of the query parameters that the lichess API's
// endpoint file endpoint-NAME.yaml lists ("lichess", "masters", "player").
func (v *Validator) Params(name string) ([]string, error) {
	y, err := os.ReadFile(filepath.Join(v.dir, "endpoint-"+name+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("lichessschema: %w", err)
	}
	var doc struct {
		Parameters []struct {
			In   string `json:"in"`
			Name string `json:"name"`
		} `json:"parameters"`
		Get struct {
			Parameters []struct {
				In   string `json:"in"`
				Name string `json:"name"`
			} `json:"parameters"`
		} `json:"get"`
	}
	if err := yaml.Unmarshal(y, &doc); err != nil {
		return nil, fmt.Errorf("lichessschema: endpoint-%s.yaml: %w", name, err)
	}
	var out []string
	for _, p := range append(doc.Parameters, doc.Get.Parameters...) {
		if p.In == "query" {
			out = append(out, p.Name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("lichessschema: endpoint-%s.yaml lists no query parameter", name)
	}
	return out, nil
}
