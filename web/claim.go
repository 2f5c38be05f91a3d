package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/threefold-chess/threefold/explain"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/rules"
)

// errNoGame: the dashboard does not follow the game asked about.
var errNoGame = errors.New("no such game on this dashboard")

// CheckClaim checks, as threefold claim does, the claim of a draw by the
// side to move at ply of the game key, made by declaring move (SAN) or
// with none (""): correct or not, the rule and the proof, or why not. A
// game the dashboard does not follow, a ply beyond its moves or a move that
// is not legal there is an error. The report's sentences are in lang.
func (h *Hub) CheckClaim(key string, ply int, move string, lang i18n.Lang) (*explain.ClaimReport, error) {
	v, ok := h.Game(key)
	if !ok || len(v.FENs) == 0 {
		return nil, errNoGame
	}
	if ply < 0 || ply > v.Ply {
		return nil, fmt.Errorf("ply %d: the game has plies 0 to %d", ply, v.Ply)
	}
	// The view's plies are the moves replayed from its start; a published
	// view never changes, so this reads it without a lock.
	start, err := rules.ParseFEN(v.FENs[0])
	if err != nil {
		return nil, fmt.Errorf("the start position: %w", err)
	}
	p := start
	moves := make([]rules.Move, 0, v.Ply)
	for i := 1; i <= v.Ply; i++ {
		m, err := p.ParseUCI(v.UCI[i])
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i, err)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	g, err := explain.NewGame(start, moves)
	if err != nil {
		return nil, err
	}
	declared := rules.NoMove
	if move != "" {
		at := g.Position(ply)
		if declared, err = at.ParseSAN(move); err != nil {
			return nil, fmt.Errorf("the declared move at ply %d: %w", ply, err)
		}
	}
	return explain.NewClaims(g, lang).Check(ply, declared), nil
}

// serveClaim answers GET /api/claim?game=KEY&ply=P&move=SAN (ply: by
// default the last; move: none by default) with the claim check as
// threefold claim --json writes it; 404 for a game the dashboard does not
// follow, 400 for a bad ply or move. Its sentences are in the page's
// language (the viewer's pick, else Accept-Language, else lang).
func (s *Server) serveClaim(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	key := q.Get("game")
	ply := -1
	if ps := q.Get("ply"); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "ply: not a number"})
			return
		}
		ply = n
	} else if v, ok := s.opts.Hub.Game(key); ok {
		ply = v.Ply
	}
	report, err := s.opts.Hub.CheckClaim(key, ply, q.Get("move"), pageLang(r, s.opts.Lang))
	w.Header().Set("Vary", "Accept-Language, Cookie")
	switch {
	case errors.Is(err, errNoGame):
		writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
	case err != nil:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
	default:
		writeJSON(w, http.StatusOK, report)
	}
}
