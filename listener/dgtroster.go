package listener

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// dgtEntry is what LiveChess's tournaments say of one board: its number in
// the event, and the players and result of the pairing played on it in a
// live round.
type dgtEntry struct {
	board        int
	white, black string
	result       string // "1-0", "0-1", "1/2-1/2", or "" while none
}

// LiveChess's tournament calls, over HTTP on the same port as the
// websocket (GET /api/v1.0/tournaments, /tournament/{uuid},
// /round/{uuid}/{n}), as the livechess command-line tool of DGT's users
// reads them.
type lcTournamentRef struct {
	UUID   string `json:"uuid"`
	Rounds int    `json:"rounds"`
}

type lcTournament struct {
	UUID    string   `json:"uuid"`
	Rounds  int      `json:"rounds"`
	EBoards []string `json:"eboards"` // the serials, board 1 first
}

type lcRound struct {
	Nr       int         `json:"nr"`
	Pairings []lcPairing `json:"pairings"`
}

type lcPairing struct {
	Nr     int       `json:"nr"`
	White  *lcPlayer `json:"white"`
	Black  *lcPlayer `json:"black"`
	Live   bool      `json:"live"`
	Result *string   `json:"result"` // WHITEWIN, BLACKWIN, DRAW, WHITEFORFAIT, BLACKFORFAIT, or null
}

type lcPlayer struct {
	First  *string `json:"fname"`
	Middle *string `json:"mname"`
	Last   *string `json:"lname"`
}

// name is "Last, First Middle", as a PGN names a player.
func (p *lcPlayer) name() string {
	if p == nil {
		return ""
	}
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return strings.TrimSpace(*s)
	}
	given := strings.TrimSpace(str(p.First) + " " + str(p.Middle))
	switch last := str(p.Last); {
	case last == "":
		return given
	case given == "":
		return last
	default:
		return last + ", " + given
	}
}

func lcResult(r *string) string {
	if r == nil {
		return ""
	}
	switch *r {
	case "WHITEWIN", "WHITEFORFAIT":
		return "1-0"
	case "BLACKWIN", "BLACKFORFAIT":
		return "0-1"
	case "DRAW":
		return "1/2-1/2"
	}
	return ""
}

// dgtRoster reads LiveChess's tournaments that use some of the boards
// (serials): for every board of a tournament, its number, and the players
// and result of its pairing in the latest round with live pairings. A
// tournament with a live round wins over one without (boards are used
// again from event to event). base is the API's HTTP address
// (http://host:1982/api/v1.0).
func dgtRoster(ctx context.Context, hc *http.Client, base string, serials map[string]bool) (map[string]dgtEntry, error) {
	var refs []lcTournamentRef
	if err := lcGet(ctx, hc, base+"/tournaments", &refs); err != nil {
		return nil, err
	}
	out := map[string]dgtEntry{}
	for _, ref := range refs {
		var t lcTournament
		if err := lcGet(ctx, hc, base+"/tournament/"+url.PathEscape(ref.UUID), &t); err != nil {
			return nil, err
		}
		ours := false
		for _, serial := range t.EBoards {
			ours = ours || serials[serial]
		}
		if !ours {
			continue // an event on other boards: its rounds are not read
		}
		for i, serial := range t.EBoards {
			if _, ok := out[serial]; serial != "" && !ok {
				out[serial] = dgtEntry{board: i + 1}
			}
		}
		// Rounds are asked for by index from 0, as the livechess tool does;
		// one more is asked for in case they count from 1. A round that
		// does not answer is skipped.
		var round *lcRound
		for n := 0; n <= t.Rounds && n <= 1000; n++ {
			var r lcRound
			if err := lcGet(ctx, hc, fmt.Sprintf("%s/round/%s/%d", base, url.PathEscape(ref.UUID), n), &r); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				continue
			}
			for _, p := range r.Pairings {
				if p.Live && (round == nil || r.Nr > round.Nr) {
					round = &r
					break
				}
			}
		}
		if round == nil {
			continue
		}
		for _, p := range round.Pairings {
			if p.Nr < 1 || p.Nr > len(t.EBoards) || t.EBoards[p.Nr-1] == "" {
				continue
			}
			out[t.EBoards[p.Nr-1]] = dgtEntry{board: p.Nr, white: p.White.name(), black: p.Black.name(), result: lcResult(p.Result)}
		}
	}
	return out, nil
}

func lcGet(ctx context.Context, hc *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return fmt.Errorf("%s: HTTP %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(v); err != nil {
		return fmt.Errorf("%s: %w", u, err)
	}
	return nil
}
