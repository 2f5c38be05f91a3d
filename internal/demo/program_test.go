package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/bot"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
	"github.com/threefold-chess/threefold/listener"
	"github.com/threefold-chess/threefold/notify"
)

// TestConsoleLines: what the demo says, word for word (the cmd demo test
// waits for some of these lines).
func TestConsoleLines(t *testing.T) {
	var b bytes.Buffer
	c := NewConsole(&b, i18n.English)
	c.Intro("http://127.0.0.1:1", "http://127.0.0.1:2/", 3*time.Minute)
	if err := c.WriteRecord(context.Background(), threefold.BotRecord{GameID: "g1", White: threefold.BotPlayer{Name: "threefold-bot"},
		Black: threefold.BotPlayer{Name: "demo-opponent"}, Result: "1/2-1/2", Termination: "threefold_claimed", Plies: 64}); err != nil {
		t.Fatal(err)
	}
	c.Outro(3*time.Minute, false, 7, 12, 11)
	want := []string{
		"threefold demo — no account, no network: a simulated Lichess at http://127.0.0.1:1 replays recorded real games.",
		"dashboard: http://127.0.0.1:2/",
		fmt.Sprintf("following: a broadcast round of %d boards, a blitz game that reaches a fifth occurrence, and the bot's games; the demo ends after 3m0s (Ctrl-C ends it sooner).", Boards),
		"bot game g1 (threefold-bot vs demo-opponent) over: 1/2-1/2, threefold claimed after 64 plies.",
		"the store (a temporary one) holds 7 games and 12 alerts; the webhook (watch.webhooks) received 11 of them.",
		"demo over (after 3m0s): 12 alerts.",
	}
	if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConsoleInEveryLanguage: the demo says what it does, how bot games
// ended and why it stopped in the language of lang.
func TestConsoleInEveryLanguage(t *testing.T) {
	rec := threefold.BotRecord{GameID: "g1", White: threefold.BotPlayer{Name: "threefold-bot"},
		Black: threefold.BotPlayer{Name: "demo-opponent"}, Result: "1/2-1/2", Termination: "threefold_claimed", Plies: 64}
	for _, tc := range []struct {
		name        string
		lang        i18n.Lang
		interrupted bool
		want        []string
	}{
		{"russian", i18n.Russian, false, []string{"демо threefold — без учётной записи", "демо закончится через 3 мин",
			"партия бота g1 (threefold-bot — demo-opponent) окончена: 1/2-1/2, троекратное повторение, по требованию, после 64 полуходов.",
			"демо окончено (прошло 3 мин): оповещений: 12."}},
		{"turkish interrupted", i18n.Turkish, true, []string{"pano: http://127.0.0.1:2/", "demo süresi: 3 dk",
			"bot oyunu g1 (threefold-bot - demo-opponent) bitti: 1/2-1/2, üç kez konum tekrarı, talep üzerine; yarım hamle sayısı: 64.", "demo bitti (yarıda kesildi): uyarı sayısı: 12."}},
		{"persian", i18n.Persian, false, []string{"داشبورد: http://127.0.0.1:2/", "نمایش پس از ۳ دقیقه تمام می‌شود",
			"پس از ۶۴ نیم‌حرکت.", "نمایش تمام شد (پس از ۳ دقیقه): ۱۲ هشدار."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			c := NewConsole(&b, tc.lang)
			c.Intro("http://127.0.0.1:1", "http://127.0.0.1:2/", 3*time.Minute)
			if err := c.WriteRecord(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			c.Outro(3*time.Minute, tc.interrupted, 7, 12, 11)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("console lacks %q:\n%s", w, b.String())
				}
			}
			for _, en := range []string{"dashboard", "bot game", "demo over", "plies"} {
				if strings.Contains(b.String(), en) {
					t.Errorf("English %q left:\n%s", en, b.String())
				}
			}
		})
	}
}

// TestConsoleKeepsLinesWhole: lines written at once by several goroutines
// come out whole.
func TestConsoleKeepsLinesWhole(t *testing.T) {
	var b bytes.Buffer
	c := NewConsole(&b, i18n.English)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				c.printf("%s", strings.Repeat(fmt.Sprint(i), 40))
			}
		}()
	}
	wg.Wait()
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if len(line) != 40 || strings.Count(line, line[:1]) != 40 {
			t.Fatalf("a line mixed: %q", line)
		}
	}
}

// TestWebhookCountsAlertsOnce: the webhook counts distinct alert ids, so
// an alert sent again is one alert.
func TestWebhookCountsAlertsOnce(t *testing.T) {
	h := NewWebhook()
	defer h.Close()
	for _, id := range []string{"a", "b", "a"} {
		req, err := http.NewRequest(http.MethodPost, h.URL, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(notify.IdempotencyHeader, id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	if got := h.Received(); got != 2 {
		t.Errorf("received %d, want 2", got)
	}
}

// TestRunParts: every part runs; a failure is reported by name, the end of
// a context is not.
func TestRunParts(t *testing.T) {
	var mu sync.Mutex
	var failed []string
	ran := make([]bool, 4)
	RunParts(func(part string, err error) {
		mu.Lock()
		defer mu.Unlock()
		failed = append(failed, part+": "+err.Error())
	},
		Part{"ok", func() error { ran[0] = true; return nil }},
		Part{"broken", func() error { ran[1] = true; return errors.New("boom") }},
		Part{"cancelled", func() error { ran[2] = true; return fmt.Errorf("stream: %w", context.Canceled) }},
		Part{"timed out", func() error { ran[3] = true; return context.DeadlineExceeded }})
	if !slices.Equal(ran, []bool{true, true, true, true}) {
		t.Errorf("ran %v", ran)
	}
	if !slices.Equal(failed, []string{"broken: boom"}) {
		t.Errorf("failed %q", failed)
	}
	RunParts(nil, Part{"unreported", func() error { return errors.New("boom") }}) // no one to tell: no panic
}

// TestScenarioTargets: the watcher follows the broadcast round and the
// spectated game.
func TestScenarioTargets(t *testing.T) {
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	s, err := New(fake, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	targets, err := s.Targets()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []listener.TargetKind
	for _, tg := range targets {
		kinds = append(kinds, tg.Kind)
	}
	if want := []listener.TargetKind{listener.TargetLichessRound, listener.TargetLichessGame}; !slices.Equal(kinds, want) {
		t.Errorf("targets %v, want %v", kinds, want)
	}
}

// TestBotConfig: the demo's bot config is valid, resigns at the end and
// claims after the pace.
func TestBotConfig(t *testing.T) {
	bc, err := BotConfig(700*time.Millisecond, i18n.English)
	if err != nil {
		t.Fatal(err)
	}
	if bc.OnStop != "resign" || bc.Policy.ClaimWait != 700*time.Millisecond || bc.Policy.BehindMargin != 50 {
		t.Errorf("config %+v", bc)
	}
}

// TestBotConfigChatsInTheLanguage: the demo's bot writes its chat notices in
// the language of lang, with what it fills in ({ending}) in it too.
func TestBotConfigChatsInTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lang     i18n.Lang
		greeting string
	}{
		{"english", i18n.English, "Hi {opponent}! I am {me}"},
		{"russian", i18n.Russian, "Привет, {opponent}! Я {me}"},
		{"turkish", i18n.Turkish, "Merhaba {opponent}! Ben {me}"},
		{"persian", i18n.Persian, "سلام {opponent}! من {me} هستم"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bc, err := BotConfig(time.Second, tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			if bc.Chat.Lang != tc.lang || !strings.HasPrefix(bc.Chat.Greeting.Text, tc.greeting) {
				t.Errorf("chat in %q, greeting %q; want %s and a greeting starting %q", bc.Chat.Lang, bc.Chat.Greeting.Text, tc.lang, tc.greeting)
			}
			want := bot.ChatTemplates(tc.lang)
			for notice, got := range map[string]string{bot.NoticeGoodbye: bc.Chat.Goodbye.Text, bot.NoticeSecond: bc.Chat.Second.Text,
				bot.NoticeThird: bc.Chat.Third.Text, bot.NoticeClaim: bc.Chat.Claim.Text, bot.NoticeFifth: bc.Chat.Fifth.Text} {
				if got != want[notice] {
					t.Errorf("%s: %q, want %q", notice, got, want[notice])
				}
			}
			if bc.Chat.Greeting.Room != "player" || bc.Chat.Second.Room != "spectator" {
				t.Errorf("rooms changed: greeting %q, second %q", bc.Chat.Greeting.Room, bc.Chat.Second.Room)
			}
		})
	}
}
