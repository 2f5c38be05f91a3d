package bot

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
)

// TestDefaultChatNoticesFitInEveryLanguage: each language's default
// notice, rendered as the bot renders it with the longest realistic
// values (Lichess usernames of 30 characters, four-digit plies, the
// longest ending of that language), fits a Lichess chat line uncut.
func TestDefaultChatNoticesFitInEveryLanguage(t *testing.T) {
	longName := strings.Repeat("W", 30)
	plies := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = 2400 + 4*i
		}
		return out
	}
	terms := []threefold.Termination{threefold.TermThreefoldClaimed, threefold.TermThreefoldAutomatic, threefold.TermFivefold,
		threefold.TermFiftyMoves, threefold.TermInsufficient, threefold.TermAgreement, threefold.TermMoveCap, threefold.TermCheckmate,
		threefold.TermStalemate, threefold.TermResignation, threefold.TermTime, threefold.TermOpponentLeft, threefold.TermAborted}
	for _, l := range i18n.Langs {
		p := i18n.For(l)
		var endings []string
		for _, term := range terms {
			for _, winner := range []string{"", "white", "black"} {
				endings = append(endings, endingText(p, term, winner, plies(5)))
			}
		}
		for notice, tmpl := range ChatTemplates(l) {
			if err := checkTemplate(tmpl); err != nil {
				t.Errorf("%s %s: %v", l, notice, err)
			}
			occ := map[string]int{NoticeSecond: 2, NoticeThird: 3, NoticeClaim: 3, NoticeFifth: 5, NoticeGoodbye: 5}[notice]
			for _, ending := range endings {
				v := ChatVars{Me: longName, Opponent: longName, Claimant: longName, Move: "1234... Qa1xb2+", Ply: 2468, Count: 5,
					Plies: joinPlies(plies(occ)), Ending: ending, Result: "1/2-1/2"}
				line := RenderChat(tmpl, v)
				if n := utf8.RuneCountInString(line); n >= ChatMaxLen && strings.HasSuffix(line, "…") {
					t.Errorf("%s %s: cut at %d characters: %q", l, notice, ChatMaxLen, line)
				}
				if strings.Contains(line, "{") {
					t.Errorf("%s %s: a placeholder left: %q", l, notice, line)
				}
			}
		}
	}
}

func TestEndingInTheChatLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang   i18n.Lang
		term   threefold.Termination
		winner string
		want   string
	}{
		{i18n.English, threefold.TermThreefoldAutomatic, "", "Drawn by threefold repetition (plies 8, 12, 16)."},
		{i18n.English, threefold.TermCheckmate, "black", "Black wins by checkmate."},
		{i18n.Russian, threefold.TermThreefoldClaimed, "", "Ничья по требованию: троекратное повторение (полуходы 8, 12, 16)."},
		{i18n.Russian, threefold.TermTime, "white", "Белые выиграли по времени."},
		{i18n.Turkish, threefold.TermFivefold, "", "Berabere: beş kez konum tekrarı (yarım hamle 8, 12, 16)."},
		{i18n.Persian, threefold.TermResignation, "black", "سیاه برد: حریف تسلیم شد."},
	} {
		t.Run(string(tc.lang)+"/"+string(tc.term)+"/"+strconv.Quote(tc.winner), func(t *testing.T) {
			if got := endingText(i18n.For(tc.lang), tc.term, tc.winner, []int{8, 12, 16}); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
