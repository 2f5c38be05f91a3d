package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/store"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/ with what the tables write now")

func TestMain(m *testing.M) {
	// The tables write moments in the local zone: the golden files are in UTC.
	time.Local = time.UTC
	os.Exit(m.Run())
}

// tables is a fixture with a row of every kind the tables of history
// and status write: every alert kind, games finished or not, instances
// alive and dead, leases free, held and expired, sources up and down,
// an outbox with and without a backlog, games behind, boards failing.
type tables struct {
	alerts []threefold.Alert
	games  []store.Game
	status store.GroupStatus
	boards []store.SourceBoard
	now    time.Time
}

func tablesFixture() tables {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	lich := threefold.GameRef{Site: "lichess", ID: "abcdefgh", URL: "https://lichess.org/abcdefgh", White: "Alice", Black: "Bob"}
	file := threefold.GameRef{Site: "file", ID: "round1.pgn#1", White: "Anand, Viswanathan", Black: "Eve\t\x1b[31m"}
	anon := threefold.GameRef{Site: "dgt", ID: "7"}
	at := func(d time.Duration) time.Time { return now.Add(-d) }
	t := tables{now: now}
	t.alerts = []threefold.Alert{
		{Kind: threefold.KindThreefold, Ply: 8, Count: 3, Occurrences: []int{0, 4, 8}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 40, Count: 11, Occurrences: []int{0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40}, Claimant: "black", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 44, Count: 12, Occurrences: []int{44}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 48, Count: 13, Occurrences: []int{48}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 52, Count: 21, Occurrences: []int{52}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 56, Count: 22, Occurrences: []int{56}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindThreefold, Ply: 60, Count: 113, Occurrences: []int{60}, Claimant: "white", Game: lich, ObservedAt: at(time.Hour)},
		{Kind: threefold.KindFivefold, Ply: 16, Count: 5, Occurrences: []int{0, 4, 8, 12, 16}, Game: lich, ObservedAt: at(50 * time.Minute)},
		{Kind: threefold.KindClaimByMove, Ply: 51, Count: 2, Occurrences: []int{43, 47}, Claimant: "white", Move: "h5f5", MoveSAN: "Qf5", Game: file, ObservedAt: at(3 * time.Hour)},
		{Kind: threefold.KindClaimByMove, Ply: 53, Count: 2, Occurrences: []int{45, 49}, Claimant: "black", Move: "e7e5", Game: file, ObservedAt: at(3 * time.Hour)},
		{Kind: threefold.KindFiftyMoves, Ply: 100, Claimant: "black", Game: anon, ObservedAt: at(2 * time.Hour)},
		{Kind: threefold.KindSeventyFiveMoves, Ply: 150, Game: anon, ObservedAt: at(90 * time.Minute)},
		{Kind: threefold.KindWithdrawn, Ply: 8, WithdrawnKind: threefold.KindThreefold, Withdraws: "abc123", Reason: "the broadcast took the move back", Game: lich, ObservedAt: at(time.Minute)},
		{Kind: threefold.KindWithdrawn, Ply: 16, WithdrawnKind: threefold.KindFivefold, Withdraws: "def456", Game: lich, ObservedAt: at(time.Minute)},
		{Kind: threefold.KindWithdrawn, Ply: 12, WithdrawnKind: threefold.KindThreefold, Withdraws: "jkl012", Reason: "the source took back the moves from ply 9: the game now has 8", Game: lich, ObservedAt: at(time.Minute)},
		{Kind: threefold.KindWithdrawn, Ply: 16, WithdrawnKind: "strange", Withdraws: "ghi789", Game: lich, ObservedAt: at(time.Minute)},
		{Kind: "unknown_kind", Ply: 1, Game: anon, ObservedAt: at(time.Second)},
	}
	t.games = []store.Game{
		{GameState: threefold.GameState{Game: lich, Source: "lichess game abcdefgh", Moves: []string{"g1f3", "g8f6"},
			Result: "1/2-1/2", Termination: "threefold_claimed", SiteResult: "draw", Finished: true}, UpdatedAt: at(time.Hour)},
		{GameState: threefold.GameState{Game: file, Source: "file round1.pgn", Moves: []string{"e4", "e5", "Nf3"}}, UpdatedAt: at(2 * time.Hour)},
		{GameState: threefold.GameState{Game: anon, Result: "1-0", Finished: true}, UpdatedAt: at(3 * time.Hour)},
		{GameState: threefold.GameState{Game: lich, Source: "lichess broadcast round 4Yuk2i2H", Moves: []string{"e4"},
			Result: "0-1", Termination: "time", SiteResult: "Time forfeit", Finished: true}, UpdatedAt: at(4 * time.Hour)},
	}
	t.status = store.GroupStatus{
		Backend: "postgres", Where: "postgres://u:xxxxx@db/threefold", Now: now,
		Instances: []store.InstanceStatus{
			{ID: "watch-a", Host: "alpha", StartedAt: at(time.Hour), LastSeen: at(35 * time.Second), LeaseTTL: 30 * time.Second,
				Budget: map[string]int{store.LeaseSource: 4}, Held: map[string]int{}},
			{ID: "watch-b", Host: "beta", StartedAt: at(2 * time.Hour), LastSeen: at(5 * time.Second), LeaseTTL: 30 * time.Second,
				Budget: map[string]int{store.LeaseSource: 4, store.LeaseGame: 8}, Held: map[string]int{store.LeaseSource: 2, store.LeaseGame: 17, "other": 1}, Alive: true},
			{ID: "watch-c", Host: "gamma\x1b]0;x\a", StartedAt: at(time.Minute), LastSeen: now.Add(2 * time.Second), Alive: true},
		},
		Leases: []store.LeaseStatus{
			{Lease: store.Lease{Kind: store.LeaseSource, Name: "lichess broadcast round 4Yuk2i2H", Holder: "watch-a", Epoch: 3, ExpiresAt: at(5 * time.Second)}, Expired: true},
			{Lease: store.Lease{Kind: store.LeaseSource, Name: "chess.com player hikaru", Holder: "watch-b", Epoch: 1, ExpiresAt: now.Add(15 * time.Second)}},
			{Lease: store.Lease{Kind: store.LeaseGame, Name: "lichess/abcdefgh", Epoch: 2}, Expired: true},
			{Lease: store.Lease{Kind: store.LeaseGame, Name: "lichess/ijklmnop", Holder: "watch-b", Epoch: 1, ExpiresAt: now.Add(15 * time.Second)}},
		},
		Sources: []store.SourceStatus{
			{Name: "chess.com player hikaru", Holder: "watch-b"},
			{Name: "dgt ws://localhost:1982/api/v1.0", HasState: true, StateUpdatedAt: at(2*time.Hour + 5*time.Minute),
				Health: &threefold.SourceHealth{Connected: true, Since: at(35 * time.Second)}},
			{Name: "lichess broadcast round 4Yuk2i2H", Holder: "watch-a", HasState: true, StateUpdatedAt: at(35 * time.Second),
				Health: &threefold.SourceHealth{Since: at(25 * time.Second), Failures: 3,
					LastError: "lichess: stream broadcast round 4Yuk2i2H:\n dial tcp: lookup lichess.invalid: no such host; and a reason long enough to be cut at eighty runes"}},
		},
		Outbox: []store.SinkLag{
			{Sink: "discord webhook 1", Pending: 2, Claimed: 1, Sent: 5, Oldest: at(time.Minute), MaxAttempts: 3, LastError: "HTTP 503"},
			{Sink: "json webhook 2", Sent: 7},
		},
		Games: []store.GameLag{
			{Site: "lichess", ID: "abcdefgh", Processed: 4, Seen: 6, UpdatedAt: at(35 * time.Second)},
			{Site: "lichess", ID: "ijklmnop", Processed: -1, Seen: 3, Holder: "watch-b", UpdatedAt: at(time.Second)},
			{Site: "dgt", ID: "7", Processed: 10, Seen: 10, UpdatedAt: at(time.Hour)},
		},
	}
	t.boards = []store.SourceBoard{
		{Source: "dgt ws://localhost:1982/api/v1.0", AsOf: at(10 * time.Second), BoardStatus: threefold.BoardStatus{Serial: "31337", Board: 1, State: "ACTIVE", Followed: true, Game: "7"}},
		{Source: "dgt ws://localhost:1982/api/v1.0", AsOf: at(10 * time.Second), BoardStatus: threefold.BoardStatus{Serial: "31338", State: "INACTIVE", Failing: "switched off"}},
		{Source: "dgt ws://localhost:1982/api/v1.0", BoardStatus: threefold.BoardStatus{Serial: "10001", Failing: "not\nlisted"}},
		{Source: "dgt ws://a", AsOf: at(time.Second), BoardStatus: threefold.BoardStatus{Serial: "2", Board: 2, State: "ACTIVE", Followed: true}},
	}
	return t
}

// golden compares got with testdata/name (or rewrites it with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestTablesGolden: every table, in every language, as the golden files
// of testdata/ have it — a list cut by a limit, and an empty one, too.
func TestTablesGolden(t *testing.T) {
	f := tablesFixture()
	empty := store.GroupStatus{Backend: "sqlite", Where: "/x/threefold.db", Now: f.now}
	for _, l := range i18n.Langs {
		p := i18n.For(l)
		t.Run(string(l), func(t *testing.T) {
			var b bytes.Buffer
			AlertTable(p, &b, f.alerts, len(f.alerts))
			AlertTable(p, &b, f.alerts[:3], 40)
			AlertTable(p, &b, nil, 0)
			golden(t, filepath.Join(string(l), "alerts.txt"), b.Bytes())

			b.Reset()
			GameTable(p, &b, f.games, len(f.games))
			GameTable(p, &b, f.games[:1], 2)
			GameTable(p, &b, nil, 0)
			golden(t, filepath.Join(string(l), "games.txt"), b.Bytes())

			b.Reset()
			StatusTables(p, &b, f.status, 0)
			BoardTable(p, &b, f.boards, f.now)
			StatusTables(p, &b, f.status, 2)
			StatusTables(p, &b, empty, 2)
			BoardTable(p, &b, nil, f.now)
			golden(t, filepath.Join(string(l), "status.txt"), b.Bytes())
		})
	}
}

// TestStatusJSONGolden: status --json, full and empty (lists as [], not
// null).
func TestStatusJSONGolden(t *testing.T) {
	f := tablesFixture()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	for _, v := range []any{StatusJSON(f.status, f.boards), StatusJSON(store.GroupStatus{Backend: "sqlite", Where: "/x/threefold.db", Now: f.now}, nil)} {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "status.json", b.Bytes())
}
