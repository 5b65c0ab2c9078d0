package explorer

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/keys"
	"github.com/chessbook/chessbook/polyglot"
)

var updateRoutes = flag.Bool("update-routes", false, "rewrite the route table of docs/http-api.md from explorer.Routes")

// apiDoc is the reference of the HTTP API, whose route table is Routes'.
const apiDoc = "../docs/http-api.md"

const (
	routesBegin = "<!-- routes: generated from explorer.Routes -->\n"
	routesEnd   = "<!-- end of routes -->\n"
)

// routesMarkdown is the route table of docs/http-api.md.
func routesMarkdown() string {
	var b strings.Builder
	b.WriteString("| Route | API | Parameters | Answer |\n| --- | --- | --- | --- |\n")
	for _, rt := range Routes() {
		params := "none"
		if len(rt.Params) > 0 {
			params = "`" + strings.Join(rt.Params, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `GET %s` | %s | %s | %s |\n", displayPattern(rt.Pattern), rt.API, params, rt.Doc)
	}
	return b.String()
}

// displayPattern is a route's pattern as a path: "/{$}" is "/".
func displayPattern(p string) string { return strings.TrimSuffix(p, "{$}") }

// TestRoutesDoc: the route table of docs/http-api.md is Routes', every
// route once (run with -update-routes to rewrite it).
func TestRoutesDoc(t *testing.T) {
	b, err := os.ReadFile(apiDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, routesBegin), strings.Index(doc, routesEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q ... %q section", apiDoc, routesBegin, routesEnd)
	}
	want := routesMarkdown()
	if got := doc[i+len(routesBegin) : j]; got != want {
		if !*updateRoutes {
			t.Fatalf("%s: the route table differs from explorer.Routes (run go test ./explorer -run TestRoutesDoc -update-routes):\n--- Routes\n%s--- documented\n%s", apiDoc, want, got)
		}
		doc = doc[:i+len(routesBegin)] + want + doc[j:]
		if err := os.WriteFile(apiDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each route is documented once, with an answer and a known API.
	seen := map[string]bool{}
	for _, rt := range Routes() {
		if seen[rt.Pattern] || rt.Doc == "" || !slices.Contains([]string{APILichess, APIOurs, APIPage}, rt.API) {
			t.Errorf("route %+v: listed twice, undocumented or of an unknown API", rt)
		}
		seen[rt.Pattern] = true
		if n := strings.Count(doc, "`GET "+displayPattern(rt.Pattern)+"`"); n != 1 {
			t.Errorf("%s names GET %s %d times", apiDoc, rt.Pattern, n)
		}
	}
}

// TestRoutesParams: every route of the API takes the parameters its entry
// in the table lists, and refuses any other naming exactly those (the
// handlers' lists are the table's); each answers GET.
func TestRoutesParams(t *testing.T) {
	b, err := polyglot.OpenBook("../polyglot/testdata/golden.bin")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewHandlerWith(championsStore(t), HandlerOptions{Book: b, BookName: "golden.bin"}))
	defer srv.Close()
	id := firstGameID(t, srv)
	start := board.StartPosition()
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	for _, rt := range Routes() {
		path := wildcard.ReplaceAllStringFunc(rt.Pattern, func(w string) string {
			switch w {
			case "{id}":
				return id
			case "{code}":
				return keys.Text(keys.Encode(&start))
			}
			return ""
		})
		if strings.HasSuffix(path, "/") && path != "/" {
			path += "app.js"
		}
		// The parameters a route cannot answer without.
		need := map[string]string{"/player": "player=Kasparov&color=white", "/players": "name=kasp"}[rt.Pattern]
		target := path
		if need != "" {
			target += "?" + need
		}
		if code, body, _ := querytest.Get(t, srv, target); code != 200 {
			t.Errorf("GET %s: %d %.200s", target, code, body)
		}
		if rt.API == APIPage {
			continue
		}
		code, body, _ := querytest.Get(t, srv, path+"?bogus=1")
		if need != "" {
			code, body, _ = querytest.Get(t, srv, path+"?"+need+"&bogus=1")
		}
		var e errorReply
		takes := "none"
		if len(rt.Params) > 0 {
			takes = strings.Join(rt.Params, ", ")
		}
		if code != 400 || json.Unmarshal([]byte(body), &e) != nil || !strings.Contains(e.Error, "unknown parameter ("+path+" takes "+takes+")") {
			t.Errorf("GET %s?bogus=1: %d %s; want 400 naming the table's parameters (%s)", path, code, body, takes)
		}
	}
}
