package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// Termination is the true reason a game ended, found by replaying it.
// Lichess reports every draw by rule as status "draw"; these names tell
// them apart. The values are part of the record's JSON contract.
type Termination string

const (
	TermThreefoldClaimed   Termination = "threefold_claimed"   // a player claimed the third occurrence (draw/yes or a move offering a draw)
	TermThreefoldAutomatic Termination = "threefold_automatic" // Lichess drew at the third occurrence by itself
	TermFivefold           Termination = "fivefold"            // fifth occurrence (FIDE 9.6.1)
	TermFiftyMoves         Termination = "fifty_moves"         // 50 moves of each side without pawn move or capture (Lichess draws at once)
	TermInsufficient       Termination = "insufficient_material"
	TermInsufficientClaim  Termination = "insufficient_material_claim" // a draw offer while the other side cannot win
	TermAgreement          Termination = "agreement"
	TermMoveCap            Termination = "move_cap" // Lichess's 600-ply limit
	TermCheckmate          Termination = "checkmate"
	TermStalemate          Termination = "stalemate"
	TermResignation        Termination = "resignation"
	TermTime               Termination = "time"          // a flag fell
	TermOpponentLeft       Termination = "opponent_left" // status timeout: a player left and the other claimed
	TermAborted            Termination = "aborted"
	TermNoStart            Termination = "no_start"
	TermCheat              Termination = "cheat"
	TermVariantEnd         Termination = "variant_end"
	TermUnknown            Termination = "unknown"
	lichessMaxPlies                    = 600
)

// Claim is a draw claim the bot made.
type Claim struct {
	Ply  int    `json:"ply"`            // the ply of the position claimed (or produced by Move)
	How  string `json:"how"`            // "draw_yes" or "move_offering_draw"
	Move string `json:"move,omitempty"` // UCI of the move, for move_offering_draw
}

// classifyInput is what classify needs to know about the end of a game.
type classifyInput struct {
	Status string // Lichess's final status
	Winner string
	Game   *rules.Game
	Claims []Claim
	// DrawOffered: a draw offer was pending in the last state before the end.
	DrawOffered bool
}

// classify names the true termination of a finished game and, for a
// repetition, the plies at which the final position occurred.
func classify(in classifyInput) (Termination, []int) {
	g := in.Game
	pos := g.Position()
	switch in.Status {
	case lichess.StatusMate:
		return TermCheckmate, nil
	case lichess.StatusResign:
		return TermResignation, nil
	case lichess.StatusStalemate:
		return TermStalemate, nil
	case lichess.StatusOutOfTime:
		return TermTime, nil
	case lichess.StatusTimeout:
		return TermOpponentLeft, nil
	case lichess.StatusAborted:
		return TermAborted, nil
	case lichess.StatusNoStart:
		return TermNoStart, nil
	case lichess.StatusCheat:
		return TermCheat, nil
	case lichess.StatusVariantEnd:
		return TermVariantEnd, nil
	case lichess.StatusInsufficientMaterialClaim:
		return TermInsufficientClaim, nil
	case lichess.StatusDraw:
	default:
		return TermUnknown, nil
	}
	// A draw: find the rule by replaying. Lichess ends a game at once for
	// insufficient material, 50 moves and the fifth occurrence (scalachess
	// autoDraw); the third occurrence is drawn right after by the round
	// (claimed by a player or automatic for a BOT), then the move cap.
	switch {
	case pos.InsufficientMaterial():
		return TermInsufficient, nil
	case pos.HalfmoveClock() >= 100:
		return TermFiftyMoves, nil
	case g.Count() >= 5:
		return TermFivefold, g.Occurrences()
	case g.Count() >= 3:
		for _, c := range in.Claims {
			if c.Ply == g.Ply() {
				return TermThreefoldClaimed, g.Occurrences()
			}
		}
		return TermThreefoldAutomatic, g.Occurrences()
	case g.Ply() >= lichessMaxPlies:
		return TermMoveCap, nil
	}
	return TermAgreement, nil
}

// endingText is the sentence the goodbye line uses for a termination.
func endingText(t Termination, winner string, occ []int) string {
	w := "White"
	if winner == "black" {
		w = "Black"
	}
	switch t {
	case TermThreefoldClaimed:
		return "Drawn by threefold repetition, claimed (plies " + joinPlies(occ) + ")."
	case TermThreefoldAutomatic:
		return "Drawn by threefold repetition (plies " + joinPlies(occ) + ")."
	case TermFivefold:
		return "Drawn by fivefold repetition (plies " + joinPlies(occ) + ")."
	case TermFiftyMoves:
		return "Drawn by the 50-move rule."
	case TermInsufficient, TermInsufficientClaim:
		return "Drawn: insufficient material."
	case TermAgreement:
		return "Drawn by agreement."
	case TermMoveCap:
		return "Drawn at Lichess's move limit."
	case TermCheckmate:
		return w + " wins by checkmate."
	case TermStalemate:
		return "Drawn by stalemate."
	case TermResignation:
		return w + " wins by resignation."
	case TermTime:
		if winner == "" {
			return "Time ran out; drawn."
		}
		return w + " wins on time."
	case TermOpponentLeft:
		return w + " wins: the opponent left."
	case TermAborted, TermNoStart:
		return "Game aborted."
	}
	return "Game over."
}

// resultString is the PGN result of a finished game.
func resultString(status, winner string) string {
	switch {
	case winner == "white":
		return "1-0"
	case winner == "black":
		return "0-1"
	case status == lichess.StatusAborted || status == lichess.StatusNoStart || status == lichess.StatusUnknownFinish:
		return "*"
	default:
		return "1/2-1/2"
	}
}

// Player is one side of a recorded game.
type Player struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Title  string `json:"title,omitempty"`
	Rating int    `json:"rating,omitempty"`
}

// Record is one finished game, as written to the records file (one JSON
// object per line) and the log.
type Record struct {
	Site        string         `json:"site"` // "lichess"
	GameID      string         `json:"game_id"`
	URL         string         `json:"url"`
	White       Player         `json:"white"`
	Black       Player         `json:"black"`
	BotColor    string         `json:"bot_color"`
	Variant     string         `json:"variant"`
	Speed       string         `json:"speed,omitempty"`
	Rated       bool           `json:"rated"`
	InitialFEN  string         `json:"initial_fen"`
	Moves       []string       `json:"moves"` // UCI as Lichess sent them
	SAN         []string       `json:"san"`
	Plies       int            `json:"plies"`
	FinalFEN    string         `json:"final_fen"`
	Status      string         `json:"status"` // Lichess's status
	Winner      string         `json:"winner,omitempty"`
	Result      string         `json:"result"`
	Termination Termination    `json:"termination"`
	Occurrences []int          `json:"occurrences,omitempty"` // plies of the final position, for repetitions
	Claims      []Claim        `json:"claims,omitempty"`
	Engine      string         `json:"engine"`
	StartedAt   time.Time      `json:"started_at"`
	EndedAt     time.Time      `json:"ended_at"`
	RulesUsed   map[string]int `json:"rules_used,omitempty"` // how often each policy rule chose the bot's move
}

// RecordSink receives every finished game.
type RecordSink interface {
	WriteRecord(ctx context.Context, r Record) error
}

// JSONLines appends records to a file, one JSON object per line. It is
// safe for concurrent use.
type JSONLines struct {
	Path string
	mu   sync.Mutex
}

// WriteRecord implements RecordSink.
func (j *JSONLines) WriteRecord(_ context.Context, r Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	data = append(data, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(j.Path), 0o755); err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	f, err := os.OpenFile(j.Path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	return nil
}

// ReadRecords reads a records file written by JSONLines.
func ReadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	dec := json.NewDecoder(f)
	for dec.More() {
		var r Record
		if err := dec.Decode(&r); err != nil {
			return out, fmt.Errorf("bot: read records %s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}
