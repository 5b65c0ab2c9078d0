package explorer

import (
	"encoding/json"
	"github.com/chessbook/chessbook/pgn"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chessbook/chessbook/internal/lichessschema"
	"github.com/chessbook/chessbook/internal/querytest"
	"github.com/chessbook/chessbook/internal/testutil"
)

// TestAnswersValidateUnderLichessSchemas asks /lichess and /masters for
// combinations of every parameter the lichess API's endpoint files list
// (each endpoint gets only the parameters its file lists, and must take
// every one of them), on a store of over-the-board games (players without
// ratings, games dated by year only) and on one of lichess games mixed
// with them, and validates each answer under the lichess API's schemas.
func TestAnswersValidateUnderLichessSchemas(t *testing.T) {
	v := lichessschema.ForTest(t)
	data := testutil.SharedData(t)
	lichessPGN := filepath.Join(data, "small", "allancao_lichess_DrDrunkenstein_2019-01-29.pgn")
	stores := map[string]string{
		"masters": buildStore(t, championsPGN),
		"lichess": buildStore(t, lichessPGN, championsPGN),
	}
	lines := []string{"", "e2e4", "e2e4,c7c5", "d2d4,g8f6,c2c4", "e2e4,e7e5,g1f3,b8c6,f1b5"}
	variants := []string{
		"",
		"variant=standard&moves=3&topGames=15",
		"topGames=0&recentGames=0",
		"since=1900&until=1999",
		"since=2019-01&until=2019-12",
		"speeds=blitz,rapid&ratings=1600,1800,2000",
		"speeds=classical&ratings=2500",
		"history=true",
		"history=false",
		"recentGames=8&history=true&speeds=bullet,blitz",
		"fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
	}
	endpoints := []struct{ name, path, schema string }{
		{"lichess", "/lichess", lichessschema.Lichess},
		{"masters", "/masters", lichessschema.Masters},
	}
	asked := map[string]map[string]bool{}
	for name, dir := range stores {
		srv := httptest.NewServer(NewHandler(openStore(t, dir)))
		t.Cleanup(srv.Close)
		for _, ep := range endpoints {
			params, err := v.Params(ep.name)
			if err != nil {
				t.Fatal(err)
			}
			if asked[ep.name] == nil {
				asked[ep.name] = map[string]bool{}
			}
			for _, line := range lines {
				for _, extra := range variants {
					q, err := url.ParseQuery(extra)
					if err != nil {
						t.Fatal(err)
					}
					if q.Get("fen") == "" {
						q.Set("play", line)
					} else if line != "" {
						continue
					}
					for p := range q {
						if !slices.Contains(params, p) {
							q.Del(p)
						} else {
							asked[ep.name][p] = true
						}
					}
					target := ep.path + "?" + q.Encode()
					code, body, _ := querytest.Get(t, srv, target)
					if code != 200 {
						t.Errorf("%s store: GET %s: %d %.300s", name, target, code, body)
						continue
					}
					if err := v.Validate(ep.schema, []byte(body)); err != nil {
						t.Errorf("%s store: GET %s: %v", name, target, err)
					}
					if q.Get("history") == "true" && !strings.Contains(body, `"history":[`) {
						t.Errorf("%s store: GET %s: no history in %.300s", name, target, body)
					}
				}
			}
		}
	}
	// Every parameter the endpoint files list was asked (none left out).
	for _, ep := range endpoints {
		params, _ := v.Params(ep.name)
		for _, p := range params {
			if !asked[ep.name][p] {
				t.Errorf("%s: parameter %s never asked", ep.path, p)
			}
		}
	}
}

// TestGameJSONWhole: a full game's JSON has its GameRef's fields and its
// own (tags, moves, pgn), and an unknown month is absent outside /lichess.
func TestGameJSONWhole(t *testing.T) {
	g := Game{GameRef: GameRef{ID: "00000000000000aa", Result: "1-0", Year: 1990}, Tags: []pgn.Tag{{Name: []byte("Event"), Value: []byte("X")}}, Moves: []string{"e4"}, PGN: "1. e4 1-0"}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"00000000000000aa","winner":null,"white":{"name":"","rating":0},"black":{"name":"","rating":0},"year":1990,"result":"1-0","plies":0,"tags":[{"name":"Event","value":"X"}],"moves":["e4"],"pgn":"1. e4 1-0"}`
	if string(b) != want {
		t.Errorf("game JSON\n got %s\nwant %s", b, want)
	}
	g.nullMonth = true
	if b, _ := json.Marshal(g.GameRef); !strings.Contains(string(b), `"month":null`) {
		t.Errorf("a /lichess game with no month: %s", b)
	}
}
