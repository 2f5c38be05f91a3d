package i18n

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// The messages read back from English: reasons, source names, site
// results and error contexts.
var rephrased = map[string][]Key{"reason": ReasonKeys, "source": SourceKeys, "site result": SiteResultKeys, "context": ContextKeys, "attention": AttentionKeys,
	"move": {MoveAtPly, MoveAtStart, MoveIllegal, MoveAmbiguous, MoveUnreadable},
	"pgn":  {PGNAtLine, PGNUnexpectedToken, PGNUnterminatedComment, PGNUnterminatedVar, PGNTooManyPlies}}

// TestRephraseReadsBackEveryText: every English text made from one of
// these messages, with values that look like the real ones (a ply, a FEN,
// and last a path with spaces and a colon), is said in every language as
// that message with the same values. A value is read up to the text that
// follows its placeholder, so only the last may hold any text (a path, an
// error): the ones before are plies, moves, FENs and ids.
func TestRephraseReadsBackEveryText(t *testing.T) {
	values := []string{"12", "r1bqkbnr/8/8/8/8/8/8/RNBQKB1R w KQkq - 2 3"}
	for group, keys := range rephrased {
		for _, k := range keys {
			n := len(placeholders(catalogs[English][k].forms["other"]))
			args := make([]any, n)
			for i := range args {
				args[i] = values[i%len(values)] + strconv.Itoa(i)
			}
			if n > 0 {
				args[n-1] = "round 5: final.pgn"
			}
			english := For(English).Sprintf(k, args...)
			for _, l := range Langs {
				t.Run(group+"/"+string(k)+"/"+string(l), func(t *testing.T) {
					got, ok := For(l).Rephrase(english, keys...)
					if want := For(l).Sprintf(k, args...); !ok || got != want {
						t.Errorf("Rephrase(%q) = %q, %v; want %q", english, got, ok, want)
					}
				})
			}
		}
	}
}

var onlyStringPlaceholders = regexp.MustCompile(`%\[\d+\][^s]`)

// TestRephrasedMessagesTakeStrings: a message read back from English has
// only %[n]s placeholders (a number would be written with separators and
// could not be read back), and no two of them read the same text.
func TestRephrasedMessagesTakeStrings(t *testing.T) {
	for group, keys := range rephrased {
		for _, k := range keys {
			if p := onlyStringPlaceholders.FindString(catalogs[English][k].forms["other"]); p != "" {
				t.Errorf("%s %s: placeholder %s: only %%[n]s can be read back", group, k, p)
			}
			for _, other := range keys {
				if other != k && englishRE(other).MatchString(For(English).Sprintf(k, "x", "y")) {
					t.Errorf("%s: the English text of %s is also read as %s", group, k, other)
				}
			}
		}
	}
}

func TestRephraseKeepsWhatItDoesNotKnow(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"another reason", "a DGT board was reset"},
		{"a source of a test", "test source"},
		{"a prefix only", "file"},
		{"more after a known text", "the source changed the start position twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := For(Russian).Rephrase(tc.text, append(append([]Key{}, ReasonKeys...), SourceKeys...)...); ok || got != tc.text {
				t.Errorf("Rephrase(%q) = %q, %v; want it as it is", tc.text, got, ok)
			}
		})
	}
}

func TestTerminationAndSiteResult(t *testing.T) {
	for _, tc := range []struct {
		name          string
		lang          Lang
		value, want   string
		site, wantSay string
	}{
		{"english", English, "threefold_claimed", "threefold_claimed", "Time forfeit", "Time forfeit"},
		{"russian", Russian, "threefold_claimed", "троекратное повторение, по требованию", "Hikaru won by resignation", "Hikaru: победа, соперник сдался"},
		{"turkish", Turkish, "fivefold", "beş kez konum tekrarı", "Game drawn by repetition", "berabere: konum tekrarı"},
		{"persian", Persian, "seventy_five_moves", "قانون ۷۵ حرکت", "Time forfeit", "اتمام وقت"},
		{"russian, unknown kept", Russian, "something_new", "something_new", "TCEC Draw Rule", "TCEC Draw Rule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := For(tc.lang).Termination(tc.value); got != tc.want {
				t.Errorf("Termination(%q) = %q, want %q", tc.value, got, tc.want)
			}
			if got := For(tc.lang).SiteResult(tc.site); got != tc.wantSay {
				t.Errorf("SiteResult(%q) = %q, want %q", tc.site, got, tc.wantSay)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	d := time.Hour + 2*time.Minute + 3*time.Second + 400*time.Millisecond
	for _, tc := range []struct {
		name string
		lang Lang
		d    time.Duration
		want string
	}{
		{"english as Go writes it", English, d, "1h2m3s"},
		{"russian", Russian, d, "1 ч 2 мин 3 с"},
		{"russian minutes only", Russian, 5 * time.Minute, "5 мин"},
		{"russian zero", Russian, 0, "0 с"},
		{"turkish", Turkish, d, "1 sa 2 dk 3 sn"},
		{"persian", Persian, d, "۱ ساعت و ۲ دقیقه و ۳ ثانیه"},
		{"persian hours and seconds", Persian, 2*time.Hour + 9*time.Second, "۲ ساعت و ۹ ثانیه"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := For(tc.lang).Duration(tc.d); got != tc.want {
				t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
			}
		})
	}
}

func TestGameError(t *testing.T) {
	const fen = "rnbq1bnr/ppppkppp/8/4Q3/4P3/8/PPPP1PPP/RNB1KBNR b KQ - 0 3"
	for _, tc := range []struct {
		name string
		lang Lang
		err  string
		want string
	}{
		{"english as it is", English, "ply 6 (3... Kxe5): illegal move: Kxe5 in " + fen, "ply 6 (3... Kxe5): illegal move: Kxe5 in " + fen},
		{"russian illegal", Russian, "ply 6 (3... Kxe5): illegal move: Kxe5 in " + fen, "полуход 6 (3... Kxe5): невозможный ход: Kxe5 в позиции " + fen},
		{"turkish ambiguous", Turkish, "ply 5 (3. Nd2): ambiguous move: Nd2 in " + fen + ": 2 pieces can make it",
			"yarım hamle 5 (3. Nd2): belirsiz hamle: Nd2, konum: " + fen + "; bu hamleyi yapabilen taş sayısı: 2"},
		{"persian unreadable", Persian, `ply 3 (Zz9): unreadable move: "Zz9"`, `نیم‌حرکت 3 (Zz9): حرکت ناخوانا: "Zz9"`},
		{"russian pgn", Russian, `line 5: unexpected token "Zz9"`, `строка 5: неожиданный элемент "Zz9"`},
		{"turkish pgn limit", Turkish, "line 9: more than 2000 plies (limit pgn.max_plies)", "satır 9: yarım hamle sınırı aşıldı (pgn.max_plies: 2000)"},
		{"persian, another pgn error half said", Persian, "line 2: malformed tag pair: no tag name", "خط 2: malformed tag pair: no tag name"},
		{"russian, another rules error kept", Russian, "ply 4 (e9): rules: e9 is not a square", "полуход 4 (e9): rules: e9 is not a square"},
		{"russian, something else", Russian, "read: connection reset", "read: connection reset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := For(tc.lang).GameError(tc.err); got != tc.want {
				t.Errorf("GameError(%q)\n got %q\nwant %q", tc.err, got, tc.want)
			}
		})
	}
}
