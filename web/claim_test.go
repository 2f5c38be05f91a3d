package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold"
)

// kingsShuffle loses White's castling rights and comes back: the start's
// placement recurs at ply 4 as another position, then repeats for real.
var kingsShuffle = strings.Fields("Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8")

const kingsFEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

// TestViewNearRepetitions: the game's view lists every ply whose pieces
// stand as at earlier plies, same side to move, in another position, and
// a takeback rebuilds the list.
func TestViewNearRepetitions(t *testing.T) {
	hub := NewHub(HubOptions{})
	ref := threefold.GameRef{Site: "file", ID: "near"}
	tests := []struct {
		name  string
		moves []string
		want  string
	}{
		{name: "before the rights are lost", moves: kingsShuffle[:2], want: "[]"},
		{name: "the placement of the start, without the rights", moves: kingsShuffle[:4], want: "[{4 [0] [castling]}]"},
		{name: "again and again", moves: kingsShuffle, want: "[{4 [0] [castling]} {5 [1] [castling]} {8 [0] [castling]} {9 [1] [castling]} {12 [0] [castling]}]"},
		{name: "taken back", moves: kingsShuffle[:3], want: "[]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hub.Update(threefold.GameState{Game: ref, StartFEN: kingsFEN, Moves: tc.moves})
			v, _ := hub.Game(GameKey(ref))
			got := "[]"
			if len(v.NearRepetitions) > 0 {
				got = fmt.Sprint(v.NearRepetitions)
			}
			if got != tc.want {
				t.Errorf("near repetitions %s, want %s", got, tc.want)
			}
			if v.Summary().NearRepetitions != nil {
				t.Error("the summary carries the per-ply detail")
			}
		})
	}
}

// TestClaimCheck: GET /api/claim answers as threefold claim --json does,
// for the current ply by default, with a declared move, and refuses what
// it cannot check.
func TestClaimCheck(t *testing.T) {
	ts, hub, _ := newTestServer(t, "")
	ref := threefold.GameRef{Site: "file", ID: "claims"}
	hub.Update(threefold.GameState{Game: ref, StartFEN: kingsFEN, Moves: kingsShuffle[:10]})
	key := url.QueryEscape(GameKey(ref))
	tests := []struct {
		name   string
		query  string
		header http.Header
		code   int
		want   string // in the body
	}{
		{name: "the current ply", query: "game=" + key, code: http.StatusOK,
			want: `"valid": true`},
		{name: "a ply where the position occurred twice", query: "game=" + key + "&ply=8", code: http.StatusOK,
			want: `"reason": "The position of ply 8 (after 4...Ke8) has occurred twice, at plies 4 (2...Ke8), 8 (4...Ke8): a claim under 9.2.2 needs a third occurrence. At ply 0 (the start position) the pieces stood on the same squares`},
		{name: "in the viewer's language", query: "game=" + key + "&ply=8", header: http.Header{"Accept-Language": {"ru-RU,ru;q=0.9,en;q=0.5"}},
			code: http.StatusOK, want: `возникла дважды, на полуходах 4 (2...Ke8), 8 (4...Ke8): для требования по 9.2.2 нужно третье появление`},
		{name: "a declared move", query: "game=" + key + "&ply=9&move=Kf8", code: http.StatusOK,
			want: `"rule": "9.2.1"`},
		{name: "an illegal declared move", query: "game=" + key + "&ply=9&move=Ke1", code: http.StatusBadRequest, want: "the declared move at ply 9"},
		{name: "a ply beyond the game", query: "game=" + key + "&ply=11", code: http.StatusBadRequest, want: "plies 0 to 10"},
		{name: "not a ply", query: "game=" + key + "&ply=x", code: http.StatusBadRequest, want: "not a number"},
		{name: "no such game", query: "game=file/none", code: http.StatusNotFound, want: "no such game"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := get(t, ts.URL+"/api/claim?"+tc.query, tc.header)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Fatalf("%d %s\nwant %d and %s", code, body, tc.code, tc.want)
			}
			if code == http.StatusOK {
				var r struct {
					Valid    bool   `json:"valid"`
					Claimant string `json:"claimant"`
				}
				if err := json.Unmarshal([]byte(body), &r); err != nil || r.Claimant == "" {
					t.Errorf("%v: %s", err, body)
				}
			}
		})
	}
}
