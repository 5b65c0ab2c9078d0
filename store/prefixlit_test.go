package store

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The record kinds' prefixes are spelled once, in the registry
// (kinds.go): other packages name a kind by its constant
// (store.KindPosition, ...), so that the registry is the one list of
// kinds and a new kind cannot be missed by code that spells the others.
// TestNoPrefixLiterals reads every Go file of the repository outside this
// package (tests and the beam module too) and fails on a rune literal
// equal to a registered prefix used as a store key's prefix.

// prefixLiteral is one literal found where a store key prefix goes.
type prefixLiteral struct {
	pos  token.Position
	lit  string
	what string
}

func (p prefixLiteral) String() string { return fmt.Sprintf("%s: %s %s", p.pos, p.lit, p.what) }

// prefixParams collects, from the function and method declarations of
// files, the positions of their parameters that take a store key prefix:
// named prefix or kind, of type byte or Prefix (store.Prefix), by the
// function's name.
func prefixParams(files []*ast.File) map[string][]int {
	out := map[string][]int{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Type.Params == nil {
				continue
			}
			i := 0
			for _, field := range fd.Type.Params.List {
				typ := ""
				switch t := field.Type.(type) {
				case *ast.Ident:
					typ = t.Name
				case *ast.SelectorExpr:
					typ = t.Sel.Name
				}
				names := field.Names
				if len(names) == 0 {
					i++
					continue
				}
				for _, n := range names {
					name := strings.ToLower(n.Name)
					if (typ == "byte" || typ == "Prefix") && (strings.Contains(name, "prefix") || name == "kind") {
						out[fd.Name.Name] = append(out[fd.Name.Name], i)
					}
					i++
				}
			}
		}
	}
	return out
}

// storeImport returns the name under which f imports package store ("":
// it does not).
func storeImport(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/chessbook/chessbook/store" {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "store"
		}
	}
	return ""
}

// findPrefixLiterals returns the rune literals of f, a file that imports
// package store as storeName, equal to a registered prefix where a store
// key prefix goes: an argument of a function of package store, an
// argument that a function's parameter named prefix or kind takes
// (params), compared with or switched on a key's first byte (k[0]), or
// the first byte of a []byte composite (but for the game index's keys,
// under the index prefix: arguments of a function named ...Index...).
func findPrefixLiterals(fset *token.FileSet, f *ast.File, storeName string, params map[string][]int) []prefixLiteral {
	var out []prefixLiteral
	isPrefix := func(e ast.Expr) (string, bool) {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.CHAR {
			return "", false
		}
		v, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\'')
		if err != nil || v > 0xff {
			return "", false
		}
		_, ok = Prefix(v).Kind()
		return lit.Value, ok
	}
	firstByte := func(e ast.Expr) bool {
		ix, ok := ast.Unparen(e).(*ast.IndexExpr)
		if !ok {
			return false
		}
		lit, ok := ix.Index.(*ast.BasicLit)
		return ok && lit.Kind == token.INT && lit.Value == "0"
	}
	report := func(e ast.Expr, lit, what string) {
		out = append(out, prefixLiteral{fset.Position(e.Pos()), lit, what})
	}
	indexArgs := map[ast.Expr]bool{} // composites given to a game index function
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name, inStore := "", false
			switch fn := n.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
				if x, ok := fn.X.(*ast.Ident); ok && x.Name == storeName {
					inStore = true
				}
			}
			if strings.Contains(name, "Index") {
				for _, a := range n.Args {
					indexArgs[a] = true
				}
			}
			for i, a := range n.Args {
				lit, ok := isPrefix(a)
				if !ok {
					continue
				}
				switch {
				case inStore:
					report(a, lit, "passed to store."+name)
				case slices.Contains(params[name], i):
					report(a, lit, "passed to "+name+" as a prefix or kind")
				}
			}
		case *ast.BinaryExpr:
			for _, side := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if lit, ok := isPrefix(side[1]); ok && firstByte(side[0]) {
					report(side[1], lit, "compared with a key's first byte")
				}
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !firstByte(n.Tag) {
				break
			}
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if lit, ok := isPrefix(e); ok {
						report(e, lit, "a case of a switch on a key's first byte")
					}
				}
			}
		case *ast.CompositeLit:
			at, ok := n.Type.(*ast.ArrayType)
			if !ok || at.Len != nil || len(n.Elts) == 0 || indexArgs[n] {
				break
			}
			if elt, ok := at.Elt.(*ast.Ident); !ok || elt.Name != "byte" {
				break
			}
			if lit, ok := isPrefix(n.Elts[0]); ok {
				report(n.Elts[0], lit, "the first byte of a []byte")
			}
		}
		return true
	})
	return out
}

// repoGoFiles parses every Go file of the repository (the directory
// above this package's) outside this package, hidden directories and
// testdata.
func repoGoFiles(t *testing.T) (*token.FileSet, []*ast.File, []*ast.File) {
	t.Helper()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(here)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod above %s: %v", here, err)
	}
	fset := token.NewFileSet()
	var others, own []*ast.File
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if filepath.Dir(path) == here {
			own = append(own, f)
		} else {
			others = append(others, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fset, others, own
}

func TestNoPrefixLiterals(t *testing.T) {
	fset, others, own := repoGoFiles(t)
	if len(others) < 100 {
		t.Fatalf("read %d Go files outside package store: the repository is not all there", len(others))
	}
	params := prefixParams(append(slices.Clone(others), own...))
	if len(params["NewRecordIter"]) == 0 {
		t.Fatal("NewRecordIter takes no prefix: the parameter rule misses it")
	}
	var found []prefixLiteral
	for _, f := range others {
		if name := storeImport(f); name != "" {
			found = append(found, findPrefixLiterals(fset, f, name, params)...)
		}
	}
	for _, p := range found {
		t.Errorf("%v: name the kind by its constant (store.Kind...; the registry, store/kinds.go)", p)
	}
}

// TestFindPrefixLiterals checks the rules of TestNoPrefixLiterals on a
// file that breaks each, and on letters that are not prefixes.
func TestFindPrefixLiterals(t *testing.T) {
	src := `package x

import (
	"github.com/chessbook/chessbook/store"
	"github.com/chessbook/chessbook/board"
)

func iters(srcs []int, prefix byte, of func()) {}

func (s *S) NewRecordIter(prefix store.Prefix) {}

func f(st *store.Store, k []byte) {
	st.NewRecordIter('p')            // flagged: a parameter named prefix
	iters(nil, 'h', nil)             // flagged: a parameter named prefix
	_ = store.Prefix('x')            // flagged: an argument of package store
	_ = k[0] == 'g'                  // flagged: a key's first byte
	_ = []byte{'q', 1}               // flagged: a []byte's first byte
	switch k[0] {
	case 'n':                        // flagged
	case 'z':
	}
	st.NewIndexIter([]byte{'g'}, nil) // not: an index key
	_ = board.FromFile('e')           // not: a file letter
	_ = k[1] == 'p'                   // not: not the first byte
	_ = []byte{'z'}                   // not: no kind
	_ = "p"
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := findPrefixLiterals(fset, f, storeImport(f), prefixParams([]*ast.File{f}))
	want := []string{"'p'", "'h'", "'x'", "'g'", "'q'", "'n'"}
	var lits []string
	for _, p := range got {
		lits = append(lits, p.lit)
	}
	if !slices.Equal(lits, want) {
		t.Errorf("found %v, want %v", got, want)
	}
}
