package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/rules"
)

// lichessMaxPlies is the ply at which Lichess ends a game by its move cap.
const lichessMaxPlies = 600

// classifyInput is what classify needs to know about the end of a game.
type classifyInput struct {
	Status string // Lichess's final status
	Winner string
	Game   *rules.Game
	Claims []threefold.BotClaim
	// DrawOffered: a draw offer was pending in the last state before the end.
	DrawOffered bool
}

// classify names the true termination of a finished game and, for a
// repetition, the plies at which the final position occurred.
func classify(in classifyInput) (threefold.Termination, []int) {
	g := in.Game
	pos := g.Position()
	switch in.Status {
	case lichess.StatusMate:
		return threefold.TermCheckmate, nil
	case lichess.StatusResign:
		return threefold.TermResignation, nil
	case lichess.StatusStalemate:
		return threefold.TermStalemate, nil
	case lichess.StatusOutOfTime:
		return threefold.TermTime, nil
	case lichess.StatusTimeout:
		return threefold.TermOpponentLeft, nil
	case lichess.StatusAborted:
		return threefold.TermAborted, nil
	case lichess.StatusNoStart:
		return threefold.TermNoStart, nil
	case lichess.StatusCheat:
		return threefold.TermCheat, nil
	case lichess.StatusVariantEnd:
		return threefold.TermVariantEnd, nil
	case lichess.StatusInsufficientMaterialClaim:
		return threefold.TermInsufficientClaim, nil
	case lichess.StatusDraw:
	default:
		return threefold.TermUnknown, nil
	}
	// A draw: find the rule by replaying. Lichess ends a game at once for
	// insufficient material, 50 moves and the fifth occurrence (scalachess
	// autoDraw); the third occurrence is drawn right after by the round
	// (claimed by a player or automatic for a BOT), then the move cap.
	switch {
	case pos.InsufficientMaterial():
		return threefold.TermInsufficient, nil
	case pos.HalfmoveClock() >= 100:
		return threefold.TermFiftyMoves, nil
	case g.Count() >= 5:
		return threefold.TermFivefold, g.Occurrences()
	case g.Count() >= 3:
		for _, c := range in.Claims {
			if c.Ply == g.Ply() {
				return threefold.TermThreefoldClaimed, g.Occurrences()
			}
		}
		return threefold.TermThreefoldAutomatic, g.Occurrences()
	case g.Ply() >= lichessMaxPlies:
		return threefold.TermMoveCap, nil
	}
	return threefold.TermAgreement, nil
}

// endingText is the sentence the goodbye line uses for a termination, in
// the chat's language.
func endingText(p *i18n.Printer, t threefold.Termination, winner string, occ []int) string {
	w := p.Sprintf(i18n.White)
	if winner == "black" {
		w = p.Sprintf(i18n.Black)
	}
	switch t {
	case threefold.TermThreefoldClaimed:
		return p.Sprintf(i18n.EndThreefoldClaimed, joinPlies(occ))
	case threefold.TermThreefoldAutomatic:
		return p.Sprintf(i18n.EndThreefoldAutomatic, joinPlies(occ))
	case threefold.TermFivefold:
		return p.Sprintf(i18n.EndFivefold, joinPlies(occ))
	case threefold.TermFiftyMoves:
		return p.Sprintf(i18n.EndFiftyMoves)
	case threefold.TermInsufficient, threefold.TermInsufficientClaim:
		return p.Sprintf(i18n.EndInsufficient)
	case threefold.TermAgreement:
		return p.Sprintf(i18n.EndAgreement)
	case threefold.TermMoveCap:
		return p.Sprintf(i18n.EndMoveCap)
	case threefold.TermCheckmate:
		return p.Sprintf(i18n.EndCheckmate, w)
	case threefold.TermStalemate:
		return p.Sprintf(i18n.EndStalemate)
	case threefold.TermResignation:
		return p.Sprintf(i18n.EndResignation, w)
	case threefold.TermTime:
		if winner == "" {
			return p.Sprintf(i18n.EndTimeDraw)
		}
		return p.Sprintf(i18n.EndTime, w)
	case threefold.TermOpponentLeft:
		return p.Sprintf(i18n.EndOpponentLeft, w)
	case threefold.TermAborted, threefold.TermNoStart:
		return p.Sprintf(i18n.EndAborted)
	}
	return p.Sprintf(i18n.EndOver)
}

// RecordSink receives every finished game.
type RecordSink interface {
	WriteRecord(ctx context.Context, r threefold.BotRecord) error
}

// JSONLines appends records to a file, one JSON object per line. It is
// safe for concurrent use.
type JSONLines struct {
	Path string
	mu   sync.Mutex
}

// WriteRecord implements RecordSink.
func (j *JSONLines) WriteRecord(_ context.Context, r threefold.BotRecord) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	data = append(data, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(j.Path), 0o700); err != nil {
		return fmt.Errorf("bot: record %s: %w", r.GameID, err)
	}
	f, err := os.OpenFile(j.Path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
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
func ReadRecords(path string) ([]threefold.BotRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []threefold.BotRecord
	dec := json.NewDecoder(f)
	for dec.More() {
		var r threefold.BotRecord
		if err := dec.Decode(&r); err != nil {
			return out, fmt.Errorf("bot: read records %s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}
