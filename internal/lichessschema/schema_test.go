//go:build oracle

package lichessschema

import (
	"strings"
	"testing"
)

// TestValidatorCatches checks that the validator accepts the lichess
// documentation's own shape and rejects what we once answered: a masters
// player without a rating, a game without its month.
func TestValidatorCatches(t *testing.T) {
	v := ForTest(t)
	good := `{"white":1,"draws":0,"black":0,"moves":[],"topGames":[],"opening":null}`
	if err := v.Validate(Masters, []byte(good)); err != nil {
		t.Fatalf("valid masters answer refused: %v", err)
	}
	game := `{"uci":"e2e4","id":"abcdefgh","winner":"white","white":{"name":"A","rating":null},"black":{"name":"B","rating":2500},"year":1990}`
	bad := `{"white":1,"draws":0,"black":0,"moves":[],"topGames":[` + game + `],"opening":null}`
	err := v.Validate(Masters, []byte(bad))
	if err == nil {
		t.Fatal("a masters game with a null rating validated")
	}
	if !strings.Contains(err.Error(), "rating") {
		t.Errorf("error does not name the rating: %v", err)
	}
	if err := v.Validate("NoSuchSchema", []byte(good)); err == nil {
		t.Error("unknown schema accepted")
	}
	if err := v.Validate(Player, []byte(`{"white":1}`)); err == nil {
		t.Error("player line without its required fields validated")
	}
}
