package web

import (
	"errors"
	"sort"
	"strconv"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/internal/safetext"
	"github.com/threefold-chess/threefold/rules"
)

// Claim is a draw claim by declared move (FIDE 9.2.1): the move and the
// plies at which the position it produces occurred before.
type Claim struct {
	UCI         string `json:"uci"`
	SAN         string `json:"san"`
	Occurrences []int  `json:"occurrences"`
}

// GameView is what the dashboard shows of one game. Every ply-indexed slice
// has one entry per ply from 0 (the start position) to Ply.
type GameView struct {
	Key      string            `json:"key"` // site + "/" + id: the game's address on the dashboard
	Game     threefold.GameRef `json:"game"`
	Source   string            `json:"source"`
	StartFEN string            `json:"start_fen"`
	Ply      int               `json:"ply"`
	FEN      string            `json:"fen"`  // the current position
	Turn     string            `json:"turn"` // "white" or "black": who may claim
	LastMove string            `json:"last_move,omitempty"`
	LastSAN  string            `json:"last_san,omitempty"`
	// Count is the number of occurrences of the current position, and
	// Occurrences their plies.
	Count       int   `json:"count"`
	Occurrences []int `json:"occurrences"`
	// Threefold: the side to move may claim now (9.2.2). Fivefold: the
	// game is drawn (9.6.1), from its first fifth occurrence on.
	// ClaimMoves: claims by declared move (9.2.1). In a game that is over
	// (finished, or drawn by the fifth occurrence) nobody may claim:
	// Threefold is false and ClaimMoves empty.
	Threefold  bool    `json:"threefold"`
	Fivefold   bool    `json:"fivefold"`
	ClaimMoves []Claim `json:"claim_moves"`
	MaxCount   int     `json:"max_count"` // the most any position of the game occurred
	// Repeated lists, for every position that occurred at least twice, the
	// plies of all its occurrences, in the order Group numbers them (of
	// their second occurrences). Only in the full view of a game (Hub.Game,
	// a page's hello): a live update's view leaves it out, since Group
	// says it (RepeatedOf), and a game page works it out.
	Repeated [][]int `json:"repeated,omitempty"`
	Status   string  `json:"status"` // "playing", "finished" or "attention"
	Result   string  `json:"result,omitempty"`
	// SiteResult is how the site itself says the game ended, beside
	// threefold's view of it (the occurrences, the claims, the status).
	SiteResult string `json:"site_result,omitempty"`
	// Attention says why the game stops short of the source's last move.
	Attention string    `json:"attention,omitempty"`
	Updated   time.Time `json:"updated"`
	DelayS    float64   `json:"delay_s"`
	// DelayPlies: how many plies the board may be ahead of this state (a
	// Lichess spectator stream is 3 plies behind an ongoing game).
	DelayPlies int    `json:"delay_plies,omitempty"`
	Audience   string `json:"audience,omitempty"`

	// The per-ply detail, only in the full view of a game (Hub.Game and
	// the game page's feed).
	UCI  []string `json:"uci,omitempty"`  // UCI of the move that produced each ply ("" for ply 0)
	SAN  []string `json:"san,omitempty"`  // SAN likewise
	FENs []string `json:"fens,omitempty"` // the position at each ply
	// Occ is the occurrence number of the position at each ply (1 for a
	// first occurrence), Group the index in Repeated of that position, or
	// -1 for positions that occur once.
	Occ   []int `json:"occ,omitempty"`
	Group []int `json:"group,omitempty"`
	// NearRepetitions are the plies whose pieces stand as at earlier
	// plies, with the same side to move, but that are other positions
	// (castling rights, en passant): beside the occurrences, what does not
	// count as one. Ascending by ply.
	NearRepetitions []threefold.NearRepetition `json:"near_repetitions,omitempty"`

	// gen and groupGen are the tracker's when it made the view: a view of
	// the same gen extends one made before (its per-ply lists start with
	// the earlier ones); of the same groupGen, its Group too.
	gen, groupGen int
}

// Summary returns the view without its per-ply detail, nor the plies of
// its repeated positions (Repeated): what the index pages show of a game
// (its most occurrences are MaxCount). An index page is sent the summary
// of every move of every game, which would otherwise grow with the game's
// repetitions.
func (v *GameView) Summary() *GameView {
	s := new(GameView)
	v.summaryInto(s)
	return s
}

// summaryInto writes v's Summary into s.
func (v *GameView) summaryInto(s *GameView) {
	*s = *v
	s.UCI, s.SAN, s.FENs, s.Occ, s.Group, s.NearRepetitions, s.Repeated = nil, nil, nil, nil, nil, nil, nil
}

// full returns v with Repeated, worked out from Group: the view a page
// opened now, or a caller of Hub.Game, gets. It costs the game's length,
// once a page, not once a move.
func (v *GameView) full() *GameView {
	f := *v
	f.Repeated = RepeatedOf(v.Group)
	return &f
}

// RepeatedOf returns the plies of every repeated position from a game's
// Group (by ply, the index of its position among the repeated ones, -1 for
// one that occurred once): Repeated[i] holds the plies whose Group is i,
// in order. The game page's script does the same (game.js, repeatedOf).
func RepeatedOf(group []int) [][]int {
	out := [][]int{}
	for ply, g := range group {
		if g < 0 {
			continue
		}
		for len(out) <= g {
			out = append(out, nil)
		}
		out[g] = append(out[g], ply)
	}
	return out
}

// Since returns the part of v that is new since prev, a view of the same
// game made before it, with the ply from which its per-ply lists start and
// the ply from which its Group starts (0 when an earlier ply's group
// changed); from is 0, and the part the whole of v, when v does not extend
// prev (the game started over). A page that has prev, or a later view,
// puts the part after its lists' first from plies (groupFrom for Group)
// and has v: a live update costs its new plies, not the whole game.
func (v *GameView) Since(prev *GameView) (part *GameView, from, groupFrom int) {
	if prev == nil || prev.Key != v.Key {
		return v, 0, 0
	}
	return v.since(prev.mark(), new(GameView))
}

// viewMark is what Since needs of an earlier view of the same game: the
// hub keeps it for the view last pushed, and does not read that view
// again (cold by the game's next update when many are followed).
type viewMark struct {
	gen, groupGen, plies int // plies: the length of its per-ply lists (0: no view)
}

func (v *GameView) mark() viewMark {
	return viewMark{gen: v.gen, groupGen: v.groupGen, plies: len(v.FENs)}
}

// since is Since for the mark of an earlier view of v's game; the part,
// when it is not v, is written into d.
func (v *GameView) since(prev viewMark, d *GameView) (part *GameView, from, groupFrom int) {
	if prev.plies == 0 || prev.gen != v.gen || len(v.FENs) < prev.plies {
		return v, 0, 0
	}
	from = prev.plies
	*d = *v
	d.UCI, d.SAN, d.FENs, d.Occ = v.UCI[from:], v.SAN[from:], v.FENs[from:], v.Occ[from:]
	if prev.groupGen == v.groupGen {
		groupFrom = from
	}
	d.Group = v.Group[groupFrom:]
	i := sort.Search(len(v.NearRepetitions), func(i int) bool { return v.NearRepetitions[i].Ply >= from })
	d.NearRepetitions = v.NearRepetitions[i:]
	return d, from, groupFrom
}

// GameKey is the dashboard's key of a game.
func GameKey(ref threefold.GameRef) string { return ref.Site + "/" + ref.ID }

// tracker replays one game with package rules, incrementally: an update
// that extends what was seen costs only its new plies. Its slices are
// append-only; a rebuild allocates new ones, so views may share them.
type tracker struct {
	replay   rules.Replay
	game     *rules.Game // replay.Game(): nil while the start cannot be read
	uci, san []string
	fens     []string
	occ      []int
	group    []int // by ply: the index of its position among the repeated ones (by second occurrence), -1 while it occurred once
	repeated int   // how many positions occurred twice or more
	maxCount int
	near     []threefold.NearRepetition // by ply, ascending
	attn     string
	// gen counts the times the game started over (a correction): its
	// per-ply lists are append-only between two; groupGen counts the times
	// an earlier ply's group changed (a first occurrence joining a group).
	gen, groupGen int
}

// record adds the ply a replay reached; ply 0 starts the game over.
func (t *tracker) record(s rules.Step) {
	after := s.Game.Position()
	if s.Ply == 0 {
		t.game = s.Game
		t.uci, t.san, t.fens, t.occ, t.group, t.repeated = []string{""}, []string{""}, []string{after.FEN()}, nil, nil, 0
		t.maxCount, t.near = 1, nil
		t.gen++
	} else {
		t.uci = append(t.uci, s.Move.UCI())
		t.san = append(t.san, s.Before.SAN(s.Move))
		t.fens = append(t.fens, after.FEN())
	}
	// The game counts the occurrences of its positions (a position never
	// occurs again after an irreversible move, so its count since the last
	// one is its count in the game) and lists the first.
	count := s.Game.Count()
	t.occ = append(t.occ, count)
	t.maxCount = max(t.maxCount, count)
	g := -1
	if count >= 2 {
		first := s.Game.Occurrences()[0]
		if count == 2 {
			// The first occurrence joins the group too: a copy, since
			// published views share the array.
			t.group = append(make([]int, 0, cap(t.group)), t.group...)
			t.group[first] = t.repeated
			t.repeated++
			t.groupGen++
		}
		g = t.group[first]
	}
	t.group = append(t.group, g)
	t.near = append(t.near, threefold.NearRepetitionsOf(s.Game, len(t.occ)-1)...)
}

// apply brings the tracker to the state of u, within maxPlies plies.
func (t *tracker) apply(u *threefold.GameState, maxPlies int) {
	moves := u.Moves
	if len(moves) > maxPlies {
		moves = moves[:maxPlies]
	}
	_, err := t.replay.Sync(u.StartFEN, u.Notation, moves, t.record)
	t.game, t.attn = t.replay.Game(), ""
	var re *rules.ReplayError
	switch {
	case errors.As(err, &re) && re.Ply == 0:
		t.attn = english.Sprintf(i18n.AttnBadStart, re.Err.Error())
	case errors.As(err, &re):
		t.attn = english.Sprintf(i18n.AttnBadMove, strconv.Itoa(re.Ply), safetext.Excerpt(re.Token), re.Err.Error())
	case err != nil:
		t.attn = err.Error()
	case len(moves) < len(u.Moves):
		t.attn = english.Sprintf(i18n.AttnTooLong, strconv.Itoa(maxPlies))
	case u.ReadError != "":
		t.attn = english.Sprintf(i18n.AttnUnreadable, strconv.Itoa(len(moves)), u.ReadError)
	}
}

// view builds the full view of the tracked game.
func (t *tracker) view(u *threefold.GameState) *GameView {
	v := &GameView{
		Key: GameKey(u.Game), Game: u.Game, Source: u.Source, StartFEN: u.StartFEN,
		Result: u.Result, SiteResult: u.SiteResult, Attention: t.attn, Updated: u.ObservedAt, DelayS: u.Delay.Seconds(), DelayPlies: u.DelayPlies,
		Audience: u.Audience,
		Status:   "playing", Occurrences: []int{}, ClaimMoves: []Claim{},
		gen: t.gen, groupGen: t.groupGen,
	}
	switch {
	case t.attn != "":
		v.Status = "attention"
	case u.Finished:
		v.Status = "finished"
	}
	if t.game == nil {
		return v
	}
	n := len(t.occ)
	v.Ply = n - 1
	v.UCI, v.SAN, v.FENs, v.Occ, v.Group = t.uci[:n:n], t.san[:n:n], t.fens[:n:n], t.occ[:n:n], t.group[:n:n]
	v.NearRepetitions = t.near[:len(t.near):len(t.near)]
	v.FEN = t.fens[n-1]
	v.LastMove, v.LastSAN = t.uci[n-1], t.san[n-1]
	verdict := t.game.Verdict()
	v.Turn = verdict.Turn.String()
	v.Count = verdict.Count
	v.Occurrences = append(v.Occurrences, verdict.Occurrences...)
	// The game is drawn from its first fifth occurrence on, even when the
	// record goes on; nobody may claim in a game that is over.
	v.Fivefold = verdict.Fivefold || t.game.FivefoldPly() >= 0
	if !u.Finished && !v.Fivefold {
		v.Threefold = verdict.Threefold
		pos := t.game.Position()
		for _, m := range verdict.ClaimMoves {
			v.ClaimMoves = append(v.ClaimMoves, Claim{UCI: m.UCI(), SAN: pos.SAN(m), Occurrences: t.game.OccurrencesOf(m)})
		}
	}
	v.MaxCount = t.maxCount
	return v
}

// english writes the texts a game view keeps in English (its attention),
// which the page's script says in the viewer's language (TF.rephrase).
var english = i18n.For(i18n.English)
