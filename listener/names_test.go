package listener

import (
	"testing"

	"github.com/threefold-chess/threefold/chesscom"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// TestSourceNamesAreSaidInEveryLanguage: the name of every kind of source
// is one i18n reads back, so that alerts, status and the dashboard say it
// in the reader's language ("file x.pgn" is «файл x.pgn»).
func TestSourceNamesAreSaidInEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  Source
	}{
		{"file", &FileSource{Path: "round 5.pgn"}},
		{"dgt", &DGTSource{URL: "ws://localhost:1982/api/v1.0"}},
		{"chess.com", &ChessComSource{Target: chesscom.Target{Kind: chesscom.KindTournament, ID: "t1"}}},
		{"lichess game", &LichessGameSource{GameID: "Yy6fKDw6"}},
		{"lichess users", &LichessUsersSource{Users: []string{"a", "b"}}},
		{"lichess tv", &LichessTVSource{}},
		{"lichess tv channel", &LichessTVSource{Channel: "blitz"}},
		{"lichess broadcast tour", &LichessBroadcastSource{TourID: "tour1"}},
		{"lichess broadcast round", &LichessBroadcastSource{RoundID: "rnd1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := tc.src.Name()
			for _, l := range i18n.Langs {
				if _, ok := i18n.For(l).Rephrase(name, i18n.SourceKeys...); !ok {
					t.Errorf("%s: %q is not a source name i18n knows", l, name)
				}
			}
		})
	}
}
