// Package threefold is the vocabulary every part shares: games, their state, alerts and the bot's records.
//
// GameRef names a game on a site; GameState is a game as far as it has
// been seen (sources emit it, the watcher and the dashboard replay it, the
// store keeps it); Alert is raised when the repetition rule (or the
// 50/75-move rule) applies; Termination names how a game really ended;
// BotRecord is a finished game of the bot. It imports nothing of ours but
// rules, so the bot, the listener and every sink can depend on it without
// depending on each other.
package threefold

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/threefold-chess/threefold/rules"
)

// GameRef names one game on one site.
type GameRef struct {
	Site  string `json:"site"`  // "lichess", "chess.com", "dgt", "file", …
	ID    string `json:"id"`    // the site's id (Lichess game id, [GameURL], board serial, …)
	URL   string `json:"url"`   // a link a person can open, "" if none
	White string `json:"white"` // player names as the source gives them
	Black string `json:"black"`
	// Board is the game's board number in its event, where the source
	// knows it (DGT LiveChess tournaments); 0 if not.
	Board int `json:"board,omitempty"`
}

// ClockReading is what a game's clock showed: the time each side had
// left, in seconds.
type ClockReading struct {
	WhiteS float64 `json:"white_s"`
	BlackS float64 `json:"black_s"`
}

// SourceHealth is the connection state of a source (a Lichess stream, a
// DGT server), as the instance following it last saw it.
type SourceHealth struct {
	Source    string    `json:"source"`
	Connected bool      `json:"connected"`
	Since     time.Time `json:"since"`    // connected, or down, since then
	Failures  int       `json:"failures"` // attempts in a row that failed
	LastError string    `json:"last_error,omitempty"`
}

// BoardStatus is the health of one electronic board (DGT LiveChess) as
// its source sees it: what the arbiter checks before and during a round.
type BoardStatus struct {
	Serial string `json:"serial"`          // the board's serial number
	Board  int    `json:"board,omitempty"` // its number in the event, 0 if unknown
	// State is LiveChess's: ACTIVE, INACTIVE (switched off by the
	// operator), NOTRESPONDING, DELAYED (its information lags the real
	// board), or "" (not activated).
	State    string `json:"state"`
	Followed bool   `json:"followed"`          // its feed is subscribed to
	Failing  string `json:"failing,omitempty"` // why it is not followed (LiveChess's error, "not listed"), "" when it is
	Game     string `json:"game,omitempty"`    // the id of the game on it
	// Placement is the piece placement LiveChess last reported (the board
	// field of a FEN): what is on the board, even before a move is known.
	Placement string    `json:"placement,omitempty"`
	LastSeen  time.Time `json:"last_seen,omitzero"` // its last message
}

// Healthy reports whether the board is followed and LiveChess says it is
// well (ACTIVE).
func (b BoardStatus) Healthy() bool { return b.Followed && b.Failing == "" && b.State == "ACTIVE" }

// AlertKind says which rule an alert is about. The values are part of the
// JSON contract and never change.
type AlertKind string

const (
	// KindThreefold: the current position has occurred three or more times
	// and the side to move may claim (FIDE 9.2.2). One alert per such ply.
	KindThreefold AlertKind = "threefold"
	// KindClaimByMove: the current position has occurred fewer than three
	// times, but the side to move may claim by declaring Move (FIDE 9.2.1).
	KindClaimByMove AlertKind = "claim_by_move"
	// KindFivefold: the position has occurred the fifth time; the game is
	// drawn (FIDE 9.6.1) and should be over.
	KindFivefold AlertKind = "fivefold"
	// KindFiftyMoves: the side to move may claim under the 50-move rule (9.3).
	KindFiftyMoves AlertKind = "fifty_moves"
	// KindSeventyFiveMoves: 75 moves by each side without a pawn move or
	// capture; the game is drawn (9.6.2) and should be over.
	KindSeventyFiveMoves AlertKind = "seventy_five_moves"
	// KindWithdrawn: an alert raised before no longer holds: the source
	// corrected the moves it was about (a DGT board that misread a move
	// while pieces were in the air, a broadcast correction, a takeback).
	// Withdraws is the id of that alert, WithdrawnKind its kind; Ply, FEN,
	// Claimant, Move and SAN are its own; Reason says what changed.
	KindWithdrawn AlertKind = "withdrawn"
)

// Kinds lists every alert kind.
var Kinds = []AlertKind{KindThreefold, KindClaimByMove, KindFivefold, KindFiftyMoves, KindSeventyFiveMoves, KindWithdrawn}

// Alert is one event of the rule in one game at one ply, with its proof.
// Its JSON form is a stable contract (README, "The alert as JSON").
type Alert struct {
	ID            string    `json:"id"` // stable: the same event always has the same id
	Kind          AlertKind `json:"kind"`
	Ply           int       `json:"ply"`                      // half-moves played; 0 is the start position
	Count         int       `json:"count"`                    // occurrences of the position the alert is about
	Occurrences   []int     `json:"occurrences"`              // the plies at which it occurred
	OccurrenceSAN []string  `json:"occurrence_san,omitempty"` // SAN of the move that produced each occurrence ("" for ply 0)
	FEN           string    `json:"fen"`                      // the current position
	Claimant      string    `json:"claimant"`                 // "white" or "black": the side to move
	Move          string    `json:"move,omitempty"`           // UCI of the declared move (claim_by_move)
	MoveSAN       string    `json:"move_san,omitempty"`
	// OtherMovesSAN: further moves that may be declared as well
	// (claim_by_move), in SAN; Move is the first of them all.
	OtherMovesSAN []string  `json:"other_moves_san,omitempty"`
	SAN           string    `json:"san"` // SAN of the last move played ("" at ply 0)
	Game          GameRef   `json:"game"`
	Source        string    `json:"source"`
	ObservedAt    time.Time `json:"observed_at"`
	DelayS        float64   `json:"delay_s"` // the source's known delay in seconds
	// DelayPlies: how many plies the board may have been ahead of the
	// position the source had when the alert was raised (3 on a Lichess
	// spectator stream while the game is on); absent when 0.
	DelayPlies int    `json:"delay_plies,omitempty"`
	Audience   string `json:"audience,omitempty"` // "arbiters" for OTB sources: never tell the players
	// Variant is "chess960" for a game of Chess960 (Freestyle), empty for
	// standard chess.
	Variant string `json:"variant,omitempty"`
	// For KindWithdrawn: the id and kind of the alert withdrawn, and why.
	Withdraws     string    `json:"withdraws,omitempty"`
	WithdrawnKind AlertKind `json:"withdrawn_kind,omitempty"`
	Reason        string    `json:"reason,omitempty"`
	// OccurrenceClocks is, where the source reports clocks (DGT boards),
	// the clock after each ply of Occurrences (null where unknown).
	OccurrenceClocks []*ClockReading `json:"occurrence_clocks,omitempty"`
	// NearRepetitions are, for threefold, claim_by_move and fivefold
	// alerts, the earlier moments whose pieces stood on the same squares
	// with the same side to move but that were other positions, and so are
	// not among Occurrences: the third placement someone counted that
	// does not count.
	NearRepetitions []NearRepetition `json:"near_repetitions,omitempty"`
}

// NearRepetition is an earlier position with the placement and side to move
// of a position (the one at Ply, or the one an alert is about), but not the
// same position: it occurred at the plies SamePlacementAs, and differs in
// Differences ("castling", "en_passant": the kinds of threefold explain).
type NearRepetition struct {
	Ply             int      `json:"ply,omitempty"` // 0 in an alert: the alert's
	SamePlacementAs []int    `json:"same_placement_as"`
	Differences     []string `json:"differences"`
}

// NearRepetitionsOf says what g.NearRepetitions says about the current
// position of g, at ply (0 for an alert's).
func NearRepetitionsOf(g *rules.Game, ply int) []NearRepetition {
	var out []NearRepetition
	for _, n := range g.NearRepetitions() {
		out = append(out, NearRepetition{Ply: ply, SamePlacementAs: n.Plies, Differences: n.Diff.Names()})
	}
	return out
}

// AlertID returns the stable id of an alert: a digest of the game, the
// kind, the ply and, for a claim by move, the move. The same event seen
// again after a reconnect or a restart gets the same id. The withdrawal of
// an alert has AlertID(game, KindWithdrawn, ply, the withdrawn alert's id).
func AlertID(game GameRef, kind AlertKind, ply int, move string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%s", strings.ToLower(game.Site), game.ID, kind, ply, move)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// RevisedAlertID is the id of an alert raised again after it was withdrawn
// (revision 1 after one withdrawal, 2 after two, …): the event holds once
// more, and that is news. Revision 0 is AlertID.
func RevisedAlertID(game GameRef, kind AlertKind, ply int, move string, revision int) string {
	if revision <= 0 {
		return AlertID(game, kind, ply, move)
	}
	return AlertID(game, kind, ply, fmt.Sprintf("%s\x00revision %d", move, revision))
}
