package explorer

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/chessbook/chessbook/board"
	"github.com/chessbook/chessbook/keys"
)

// The explorer page: static files embedded in the binary (web/: the page,
// its script and style, and the vendored board and rules libraries, see
// web/vendor.sh), served at / and /static/, over the API of this package.
// The page needs no network access besides the server.

//go:embed web/index.html web/app.js web/style.css web/vendor
var webFiles embed.FS

// page answers GET /: the page.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	s.file(w, r, "text/html; charset=utf-8", s.index)
}

// static answers GET /static/NAME: a file of web/, or a JSON 404 (no
// directory listings, no redirects).
func (s *server) static(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	b, err := fs.ReadFile(s.web, name) // fails on a directory
	if name == "" || err != nil {
		s.notFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = http.DetectContentType(b)
	}
	s.file(w, r, ctype, b)
}

// file answers with one of the page's files. The page changes with the
// binary, so the browser checks it again every time.
func (s *server) file(w http.ResponseWriter, r *http.Request, ctype string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// securityHeaders returns the headers of every answer: a
// Content-Security-Policy that lets the page (index.html, whose inline
// scripts are allowed by their hashes) load its own files only and be
// framed by no page, no content-type sniffing, no framing (for browsers
// without CSP's frame-ancestors) and no referrer. cm-chessboard sets style
// attributes on the board's elements (style-src-attr); the favicon is a
// data: URL.
func securityHeaders(index []byte) http.Header {
	scripts := []string{"'self'"}
	for rest := index; ; {
		i := bytes.Index(rest, []byte("<script"))
		if i < 0 {
			break
		}
		rest = rest[i:]
		open := bytes.IndexByte(rest, '>')
		end := bytes.Index(rest, []byte("</script>"))
		if open < 0 || end < open {
			break
		}
		if !bytes.Contains(rest[:open], []byte("src=")) {
			sum := sha256.Sum256(rest[open+1 : end])
			scripts = append(scripts, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		}
		rest = rest[end:]
	}
	csp := []string{
		"default-src 'self'",
		"script-src " + strings.Join(scripts, " "),
		"style-src 'self'",
		"style-src-attr 'unsafe-inline'",
		"img-src 'self' data:",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}
	return http.Header{
		"Content-Security-Policy": {strings.Join(csp, "; ")},
		"X-Content-Type-Options":  {"nosniff"},
		"X-Frame-Options":         {"DENY"},
		"Referrer-Policy":         {"no-referrer"},
	}
}

// Position is the answer of GET /position/{code}: the position of a key.
type Position struct {
	FEN string `json:"fen"`
	Key string `json:"key"` // the key as URL-safe text
}

// position answers GET /position/{code}: the FEN of a position key given
// in hex or URL-safe text (what the page's links hold).
func (s *server) position(w http.ResponseWriter, r *http.Request) {
	if _, err := queryOf(r, nil); err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	k, err := keys.ParseCode(r.PathValue("code"))
	if err == nil {
		var p board.Position
		if p, err = keys.Decode(k); err == nil {
			s.reply(w, r, http.StatusOK, Position{FEN: p.FEN(), Key: keys.Text(k)})
			return
		}
	}
	s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("position %s: %v", quoteBounded(r.PathValue("code")), err))
}
