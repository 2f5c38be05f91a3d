package listener_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/listener"
)

// pgnSource answers the Lichess exports from a table.
type pgnSource struct {
	games, rounds map[string]string
	asked         int
}

func (p *pgnSource) ExportGamePGN(_ context.Context, id string) (string, error) {
	return p.answer(p.games, id)
}

func (p *pgnSource) BroadcastRoundPGN(_ context.Context, id string) (string, error) {
	return p.answer(p.rounds, id)
}

func (p *pgnSource) answer(m map[string]string, id string) (string, error) {
	p.asked++
	if s, ok := m[id]; ok {
		return s, nil
	}
	return "", errors.New("404 not found")
}

func TestReadGame(t *testing.T) {
	dir := t.TempDir()
	two := filepath.Join(dir, "two.pgn")
	games := "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 dxc4 3. Qxh7 *\n"
	if err := os.WriteFile(two, []byte(games), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.pgn")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	lichess := &pgnSource{games: map[string]string{"abcdefgh": "[Event \"x\"]\n\n1. e4 c5 *\n"},
		rounds: map[string]string{"rndABCDE": games}}
	const (
		ok      = iota
		bad     // a *BadGameSourceError
		noFile  // a *NoSuchFileError, inside a *BadGameSourceError
		failure // neither: the caller could not have done better
	)
	tests := []struct {
		name    string
		source  string
		number  int
		stdin   string
		plies   int
		stopped bool   // the game has a move that could not be played
		outcome int    // ok, bad, noFile or failure
		errHas  string // in the error
	}{
		{name: "a file's first game", source: two, number: 1, plies: 3},
		{name: "a file's second game, to its illegal move", source: two, number: 2, plies: 4, stopped: true},
		{name: "beyond the file's games", source: two, number: 3, outcome: bad, errHas: "no game 3 (it has 2)"},
		{name: "an empty file", source: empty, number: 1, outcome: bad, errHas: "no game in it"},
		{name: "stdin", source: "-", number: 1, stdin: "1. e4 e5 *", plies: 2},
		{name: "stdin without a game", source: "-", number: 1, outcome: bad, errHas: "stdin: no game in it"},
		{name: "moves in SAN", source: "1.e4 e5 2.Nf3 Nc6", number: 1, plies: 4},
		{name: "moves, to an illegal one", source: "1.e4 e5 2.Ke3", number: 1, plies: 2, stopped: true},
		{name: "neither moves nor a file", source: "hello there", number: 1, outcome: bad, errHas: "is neither a file, nor a game URL, nor moves in SAN"},
		{name: "a path that is not there", source: filepath.Join(dir, "missing.pgn"), number: 1, outcome: bad, errHas: "missing.pgn\": no such file or folder"},
		{name: "a compressed file that is not there", source: "missing.gz", number: 1, outcome: noFile, errHas: "missing.gz: no such file"},
		{name: "a Lichess game", source: "https://lichess.org/abcdefgh", number: 1, plies: 2},
		{name: "a broadcast round's second board", source: "https://lichess.org/broadcast/x/r1/rndABCDE", number: 2, plies: 4, stopped: true},
		{name: "a Lichess game that is not there", source: "https://lichess.org/zzzzzzzz", number: 1, outcome: failure, errHas: "404"},
		{name: "a source of many games", source: "https://lichess.org/tv/blitz", number: 1, outcome: bad, errHas: "a source of many games"},
		{name: "an address of another site", source: "https://example.com/game", number: 1, outcome: bad, errHas: "https://example.com/game is not the address of a game this command can read; give one of:"},
		{name: "a chess.com game", source: "https://www.chess.com/game/live/123", number: 1, outcome: bad, errHas: "is not the address of a game this command can read"},
		{name: "a Lichess game ID too short", source: "https://lichess.org/abc", number: 1, outcome: bad, errHas: "https://lichess.org/abc is not the address of a game"},
		{name: "a Lichess address without its scheme", source: "lichess.org/abc", number: 1, outcome: bad, errHas: "lichess.org/abc is not the address of a game"},
		{name: "another scheme", source: "ftp://lichess.org/abcdefgh", number: 1, outcome: bad, errHas: "is not the address of a game"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := listener.ReadGameOptions{Stdin: strings.NewReader(tc.stdin),
				Lichess: func() (listener.GamePGNs, error) { return lichess, nil }}
			g, err := listener.ReadGame(context.Background(), tc.source, tc.number, opts)
			var be *listener.BadGameSourceError
			var nf *listener.NoSuchFileError
			got := ok
			switch {
			case errors.As(err, &nf) && errors.As(err, &be):
				got = noFile
			case errors.As(err, &be):
				got = bad
			case err != nil:
				got = failure
			}
			if got != tc.outcome || err != nil && !strings.Contains(err.Error(), tc.errHas) {
				t.Fatalf("err = %v (outcome %d), want outcome %d with %q", err, got, tc.outcome, tc.errHas)
			}
			if err != nil {
				return
			}
			if len(g.Moves) != tc.plies || (g.Err != nil) != tc.stopped {
				t.Errorf("%d plies, Err %v; want %d plies, stopped %v", len(g.Moves), g.Err, tc.plies, tc.stopped)
			}
		})
	}
	if lichess.asked != 3 {
		t.Errorf("Lichess asked %d times, want 3 (only for its addresses)", lichess.asked)
	}
}

func TestReplayedGameCheckPly(t *testing.T) {
	ctx := context.Background()
	whole, err := listener.ReadGame(ctx, "1.e4 e5 2.Nf3", 1, listener.ReadGameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stopped, err := listener.ReadGame(ctx, "1.e4 e5 2.Ke3", 1, listener.ReadGameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		g      *listener.ReplayedGame
		ply    int
		errHas string // "" for none
	}{
		{"the start", whole, 0, ""},
		{"the last ply", whole, 3, ""},
		{"before the start", whole, -1, "plies are counted from 0"},
		{"beyond the game", whole, 4, "ply 4: the game has 3 plies"},
		{"the last ply replayed", stopped, 2, ""},
		{"beyond the move that stopped it", stopped, 3, "ply 3: the game can be replayed only to ply 2: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.g.CheckPly(tc.ply)
			if tc.errHas == "" && err != nil || tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
				t.Errorf("CheckPly(%d) = %v, want %q", tc.ply, err, tc.errHas)
			}
		})
	}
}
