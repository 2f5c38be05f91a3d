package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/clock"
	"github.com/threefold-chess/threefold/internal/i18n"
)

func sampleAlert() threefold.Alert {
	g := threefold.GameRef{Site: "lichess", ID: "abcd1234", URL: "https://lichess.org/abcd1234#52", White: "Anand", Black: "Martin"}
	return threefold.Alert{
		ID: threefold.AlertID(g, threefold.KindThreefold, 52, ""), Kind: threefold.KindThreefold, Ply: 52, Count: 3,
		Occurrences: []int{44, 48, 52}, OccurrenceSAN: []string{"Qf5", "Qf5", "Qf5"},
		FEN: "2r1r1k1/1p3ppp/pB1b1n2/P1pPpq2/2R5/5B2/1PPQ1PPP/4R1K1 w - - 11 27", Claimant: "white", SAN: "Qf5",
		Game: g, Source: "lichess game abcd1234", ObservedAt: time.Date(2026, 7, 7, 1, 2, 3, 0, time.UTC), DelayS: 3,
	}
}

func TestFormatText(t *testing.T) {
	a := sampleAlert()
	got := FormatText(a)
	for _, want := range []string{"Anand - Martin", "white may claim", "ply 44 (22...Qf5), ply 48 (24...Qf5), ply 52 (26...Qf5)", "after 26...Qf5",
		"https://lichess.org/abcd1234#52", "delay up to 3s", a.ID} {
		if !strings.Contains(got, want) {
			t.Errorf("text %q lacks %q", got, want)
		}
	}
	c := a
	c.Kind, c.Move, c.MoveSAN, c.Occurrences, c.OccurrenceSAN, c.Audience = threefold.KindClaimByMove, "f3e4", "Be4", []int{45, 49}, []string{"Be4", "Be4"}, "arbiters"
	got = FormatText(c)
	for _, want := range []string{"[for arbiters]", "declaring Be4", "ply 45 (23.Be4), ply 49 (25.Be4), ply 53 (27.Be4, declared)"} {
		if !strings.Contains(got, want) {
			t.Errorf("text %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "Chess960") {
		t.Errorf("a standard game's text %q says Chess960", got)
	}
	c.Variant = "chess960"
	if got = FormatText(c); !strings.Contains(got, "Anand - Martin (Chess960): white may claim") {
		t.Errorf("a Chess960 game's text %q does not say so", got)
	}
}

// How far behind the source was, in the words every sink uses: a Lichess
// spectator stream is behind by plies, a broadcast by time.
func TestLag(t *testing.T) {
	for _, row := range []struct {
		name   string
		plies  int
		delayS float64
		want   string
	}{
		{"live", 0, 0, ""},
		{"lichess spectator stream", 3, 0, "3 plies behind"},
		{"the last ply released", 1, 0, "1 ply behind"},
		{"broadcast", 0, 3600, "delay up to 1h"},
		{"both", 3, 8, "3 plies behind, delay up to 8s"},
	} {
		t.Run(row.name, func(t *testing.T) {
			a := sampleAlert()
			a.DelayPlies, a.DelayS = row.plies, row.delayS
			if got := Lag(a); got != row.want {
				t.Errorf("Lag = %q, want %q", got, row.want)
			}
			text := FormatText(a)
			if row.want != "" && !strings.Contains(text, "("+row.want+")") {
				t.Errorf("text %q lacks (%s)", text, row.want)
			}
			if row.want == "" && strings.Contains(text, "behind") || row.want == "" && strings.Contains(text, "delay") {
				t.Errorf("text %q speaks of a lag", text)
			}
			var m map[string]any
			b, _ := json.Marshal(a)
			_ = json.Unmarshal(b, &m)
			if v, ok := m["delay_plies"]; (row.plies > 0) != ok || ok && v != float64(row.plies) {
				t.Errorf("JSON delay_plies = %v (present %v), want %d", v, ok, row.plies)
			}
		})
	}
}

func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	if err := NewJSONLines(&buf).Send(context.Background(), sampleAlert()); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "kind", "ply", "count", "occurrences", "fen", "claimant", "san", "game", "source", "observed_at", "delay_s"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON line lacks %q: %s", k, buf.String())
		}
	}
}

// fakeService is a webhook endpoint that answers from a script.
type fakeService struct {
	mu      sync.Mutex
	script  []func(w http.ResponseWriter)
	bodies  [][]byte
	secret  string
	srv     *httptest.Server
	clock   *clock.Fake // every wait ends at once
	logBuf  bytes.Buffer
	logMu   sync.Mutex
	logger  *slog.Logger
	hookURL string
}

func newFakeService(t *testing.T, script ...func(w http.ResponseWriter)) *fakeService {
	f := &fakeService{script: script, secret: "T0P-SECRET-token-xyz", clock: clock.NewAutoFake(time.Time{})}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.bodies = append(f.bodies, b)
		var step func(http.ResponseWriter)
		if len(f.script) > 0 {
			step, f.script = f.script[0], f.script[1:]
		}
		f.mu.Unlock()
		if step == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		step(w)
	}))
	t.Cleanup(f.srv.Close)
	f.hookURL = f.srv.URL + "/api/webhooks/123/" + f.secret
	f.logger = slog.New(slog.NewTextHandler(&lockedWriter{w: &f.logBuf, mu: &f.logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return f
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (f *fakeService) webhook(kind Kind) *Webhook {
	return &Webhook{Kind: kind, URL: f.hookURL, Name: string(kind) + " webhook 1", Logger: f.logger,
		Clock: f.clock}
}

func status(code int, header map[string]string, body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func TestWebhookRetries(t *testing.T) {
	tests := []struct {
		name      string
		kind      Kind
		script    []func(http.ResponseWriter)
		wantErr   bool
		wantWaits []time.Duration
		wantPosts int
	}{
		{name: "discord 429 retry_after in body", kind: Discord,
			script:    []func(http.ResponseWriter){status(429, nil, `{"message":"You are being rate limited.","retry_after":1.5,"global":false}`)},
			wantWaits: []time.Duration{1500 * time.Millisecond}, wantPosts: 2},
		{name: "slack 429 Retry-After header", kind: Slack,
			script:    []func(http.ResponseWriter){status(429, map[string]string{"Retry-After": "30"}, "")},
			wantWaits: []time.Duration{30 * time.Second}, wantPosts: 2},
		{name: "json 5xx backs off", kind: JSON,
			script:    []func(http.ResponseWriter){status(502, nil, ""), status(503, nil, "")},
			wantWaits: []time.Duration{time.Second, 2 * time.Second}, wantPosts: 3},
		{name: "4xx gives up", kind: JSON,
			script:  []func(http.ResponseWriter){status(404, nil, "unknown webhook")},
			wantErr: true, wantPosts: 1},
		{name: "429 every time gives up", kind: Discord,
			script: []func(http.ResponseWriter){
				status(429, nil, `{"retry_after":2}`), status(429, nil, `{"retry_after":2}`), status(429, nil, `{"retry_after":2}`),
				status(429, nil, `{"retry_after":2}`), status(429, nil, `{"retry_after":2}`), status(429, nil, `{"retry_after":2}`)},
			wantErr: true, wantPosts: 6,
			wantWaits: []time.Duration{2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeService(t, tc.script...)
			err := f.webhook(tc.kind).Send(context.Background(), sampleAlert())
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), f.secret) {
				t.Errorf("error shows the webhook secret: %v", err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.bodies) != tc.wantPosts {
				t.Errorf("posts = %d, want %d", len(f.bodies), tc.wantPosts)
			}
			if waits := f.clock.Waits(); !equalDurations(waits, tc.wantWaits) {
				t.Errorf("waits = %v, want %v", waits, tc.wantWaits)
			}
			if strings.Contains(f.logBuf.String(), f.secret) || strings.Contains(f.logBuf.String(), f.srv.URL) {
				t.Errorf("log shows the webhook URL:\n%s", f.logBuf.String())
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWebhookBodies(t *testing.T) {
	for _, kind := range []Kind{Discord, Slack, JSON} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFakeService(t)
			if err := f.webhook(kind).Send(context.Background(), sampleAlert()); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(f.bodies[0], &m); err != nil {
				t.Fatal(err)
			}
			body := string(f.bodies[0])
			for _, want := range []string{"https://lichess.org/abcd1234#52", "2r1r1k1/1p3ppp/pB1b1n2/P1pPpq2/2R5/5B2/1PPQ1PPP/4R1K1 w - - 11 27", "44"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s body lacks %q: %s", kind, want, body)
				}
			}
			switch kind {
			case Discord:
				if _, ok := m["embeds"]; !ok {
					t.Errorf("discord body has no embeds: %s", body)
				}
			case Slack:
				if _, ok := m["blocks"]; !ok {
					t.Errorf("slack body has no blocks: %s", body)
				}
			case JSON:
				if m["id"] != sampleAlert().ID {
					t.Errorf("json body id = %v", m["id"])
				}
			}
		})
	}
}

func TestWebhookUnreachableHidesURL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL + "/hooks/SECRET-abc"
	srv.Close()
	var logs bytes.Buffer
	w := &Webhook{Kind: Slack, URL: u, Name: "slack webhook 1", MaxAttempts: 2,
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
		Clock:  clock.NewAutoFake(time.Time{})}
	err := w.Send(context.Background(), sampleAlert())
	if err == nil {
		t.Fatal("no error from a closed server")
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(logs.String(), "SECRET") {
		t.Errorf("secret shown: err=%v logs=%s", err, logs.String())
	}
}

// blockingSink holds every Send until released.
type blockingSink struct {
	release chan struct{}
	started chan string
	mu      sync.Mutex
	got     []string
}

func (b *blockingSink) Send(ctx context.Context, a threefold.Alert) error {
	b.started <- a.ID
	select {
	case <-b.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	b.mu.Lock()
	b.got = append(b.got, a.ID)
	b.mu.Unlock()
	return nil
}

func TestQueueDropsOldest(t *testing.T) {
	var logs bytes.Buffer
	sink := &blockingSink{release: make(chan struct{}), started: make(chan string, 16)}
	q := NewQueue("slow", sink, 2, slog.New(slog.NewTextHandler(&logs, nil)))
	send := func(id string) {
		if err := q.Send(context.Background(), threefold.Alert{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	send("a")
	if got := <-sink.started; got != "a" { // the worker holds "a"; the buffer is empty
		t.Fatalf("first delivered %q", got)
	}
	for _, id := range []string{"b", "c", "d", "e"} { // buffer of 2: b and c are dropped
		send(id)
	}
	if q.Dropped() != 2 {
		t.Errorf("dropped = %d, want 2", q.Dropped())
	}
	close(sink.release)
	q.Close(context.Background())
	if strings.Join(sink.got, ",") != "a,d,e" {
		t.Errorf("delivered %v, want a,d,e", sink.got)
	}
	if !strings.Contains(logs.String(), "dropped_total=1") {
		t.Errorf("no drop warning: %s", logs.String())
	}
}

func TestQueueCloseCancelsStuckSink(t *testing.T) {
	sink := &blockingSink{release: make(chan struct{}), started: make(chan string, 16)}
	q := NewQueue("stuck", sink, 4, nil)
	q.Send(context.Background(), threefold.Alert{ID: "x"})
	<-sink.started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q.Close(ctx) // must return: the stuck send is cancelled
	if len(sink.got) != 0 {
		t.Errorf("delivered %v", sink.got)
	}
}

func TestParseKind(t *testing.T) {
	for _, s := range []string{"discord", "Slack", "json"} {
		if _, err := ParseKind(s); err != nil {
			t.Errorf("ParseKind(%q): %v", s, err)
		}
	}
	if _, err := ParseKind("teams"); err == nil {
		t.Error("ParseKind(teams) accepted")
	}
}

func TestMoveLabel(t *testing.T) {
	tests := []struct {
		name, fen string
		alertPly  int
		ply       int
		want      string
	}{
		{"white moved last", "8/8/8/8/8/8/8/K6k b - - 0 26", 51, 51, "26.Bf3"},
		{"black moved last", "8/8/8/8/8/8/8/K6k w - - 0 27", 52, 52, "26...Bf3"},
		{"an earlier ply", "8/8/8/8/8/8/8/K6k w - - 0 27", 52, 45, "23.Bf3"},
		{"from a FEN, black first", "8/8/8/8/8/8/8/K6k w - - 0 41", 1, 1, "40...Bf3"},
		{"no FEN", "", 10, 10, "Bf3"},
		{"bad move number", "8/8/8/8/8/8/8/K6k w - - 0 x", 10, 10, "Bf3"},
		{"before the record", "8/8/8/8/8/8/8/K6k w - - 0 2", 40, 1, "Bf3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := threefold.Alert{FEN: tc.fen, Ply: tc.alertPly}
			if got := MoveLabel(a, tc.ply, "Bf3"); got != tc.want {
				t.Errorf("MoveLabel = %q, want %q", got, tc.want)
			}
		})
	}
}

// withdrawnAlert is the withdrawal of sampleAlert.
func withdrawnAlert() threefold.Alert {
	o := sampleAlert()
	return threefold.Alert{ID: threefold.AlertID(o.Game, threefold.KindWithdrawn, o.Ply, o.ID), Kind: threefold.KindWithdrawn,
		Ply: o.Ply, Occurrences: []int{}, FEN: o.FEN, Claimant: o.Claimant, SAN: o.SAN, Game: o.Game, Source: o.Source,
		ObservedAt: o.ObservedAt, Audience: "arbiters", Withdraws: o.ID, WithdrawnKind: threefold.KindThreefold,
		Reason: "the source corrected the moves from ply 51"}
}

// TestWithdrawnEverywhere: a withdrawal says so, names the alert it
// withdraws and why, in text and in every webhook body.
func TestWithdrawnEverywhere(t *testing.T) {
	a := withdrawnAlert()
	wants := []string{"WITHDRAWN", "threefold alert at ply 52 no longer holds", "the source corrected the moves from ply 51", a.Withdraws}
	got := FormatText(a)
	for _, want := range append(wants, "[for arbiters]", "withdraws "+a.Withdraws) {
		if !strings.Contains(got, want) {
			t.Errorf("text %q lacks %q", got, want)
		}
	}
	for _, kind := range []Kind{Discord, Slack, JSON} {
		t.Run(string(kind), func(t *testing.T) {
			f := newFakeService(t)
			if err := f.webhook(kind).Send(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			body := string(f.bodies[0])
			check := wants
			if kind == JSON {
				check = []string{`"kind":"withdrawn"`, `"withdraws":"` + a.Withdraws + `"`, `"withdrawn_kind":"threefold"`,
					`"reason":"the source corrected the moves from ply 51"`}
			}
			for _, want := range check {
				if !strings.Contains(body, want) {
					t.Errorf("%s body lacks %q: %s", kind, want, body)
				}
			}
		})
	}
}

// TestFormatTextNearRepetitions: an alert's near repetitions (the same
// pieces and side to move, another position) are said after its
// occurrences, in the reader's language.
func TestFormatTextNearRepetitions(t *testing.T) {
	a := sampleAlert()
	a.NearRepetitions = []threefold.NearRepetition{{SamePlacementAs: []int{40}, Differences: []string{"en_passant"}},
		{SamePlacementAs: []int{30, 34}, Differences: []string{"castling", "en_passant"}}}
	tests := []struct {
		name string
		lang i18n.Lang
		want string
	}{
		{"english", i18n.English, "ply 52 (26...Qf5) | not counted: ply 40, the same pieces and side to move but other en passant captures | not counted: ply 30, 34, the same pieces and side to move but other castling rights, other en passant captures |"},
		{"russian", i18n.Russian, "не засчитывается: полуход 40 — та же расстановка и очередь хода, но другая возможность взятия на проходе"},
		{"persian", i18n.Persian, "شمرده نمی‌شود: نیم‌حرکت 30، 34، چیدمان و نوبت یکسان اما حقوق متفاوت قلعه رفتن، حق متفاوت گرفتن آن‌پاسان"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatTextIn(tc.lang, a); !strings.Contains(got, tc.want) {
				t.Errorf("text lacks %q:\n%s", tc.want, got)
			}
		})
	}
	if got := FormatText(sampleAlert()); strings.Contains(got, "not counted") {
		t.Errorf("an alert without near repetitions: %s", got)
	}
}

// NewLines writes what NewJSONLines or NewTextIn write.
func TestNewLines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		asJSON bool
		lang   i18n.Lang
		same   func(w io.Writer) Sink
	}{
		{"JSON lines", true, i18n.Russian, func(w io.Writer) Sink { return NewJSONLines(w) }},
		{"text in English", false, i18n.English, func(w io.Writer) Sink { return NewTextIn(w, i18n.English) }},
		{"text in Turkish", false, i18n.Turkish, func(w io.Writer) Sink { return NewTextIn(w, i18n.Turkish) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := NewLines(&got, tc.asJSON, tc.lang).Send(context.Background(), sampleAlert()); err != nil {
				t.Fatal(err)
			}
			if err := tc.same(&want).Send(context.Background(), sampleAlert()); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("NewLines wrote %q, want %q", got.String(), want.String())
			}
		})
	}
}
