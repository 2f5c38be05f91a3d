package lichess_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/internal/i18n"
	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/lichess/fakelichess"
)

func TestBroadcastRoundState(t *testing.T) {
	at := time.Date(2026, 7, 1, 14, 30, 0, 0, time.UTC).UnixMilli()
	tests := []struct {
		name  string
		round lichess.BroadcastRoundInfo
		want  string
	}{
		{"finished at", lichess.BroadcastRoundInfo{FinishedAt: at, Ongoing: true}, "finished"},
		{"finished flag", lichess.BroadcastRoundInfo{Finished: true}, "finished"},
		{"on now", lichess.BroadcastRoundInfo{Ongoing: true, StartsAt: at}, "on now"},
		{"scheduled", lichess.BroadcastRoundInfo{StartsAt: at}, "starts 2026-07-01 14:30 UTC"},
		{"after the previous", lichess.BroadcastRoundInfo{StartsAfterPrevious: true}, "after the previous round"},
		{"nothing said", lichess.BroadcastRoundInfo{}, "not started"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.round.State(); got != tc.want {
				t.Errorf("State() = %q, want %q", got, tc.want)
			}
		})
	}
}

// FindBroadcasts reads the listing its query chooses, and writes it as a
// table of tournaments, rounds, states and addresses.
func TestFindBroadcasts(t *testing.T) {
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	pgn := "[Event \"x\"]\n[GameURL \"https://lichess.org/broadcast/t/r/rndLive1/game0001\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
	fake.Broadcast("rndDone1").SetTour("tourLive").Finish()
	fake.Broadcast("rndLive1").SetTour("tourLive").SetPGN(pgn)
	fake.DescribeTour("tourLive", fakelichess.TourSpec{Name: "World Cup 2026", Tier: 5, Official: true, Owner: "arbiter"})
	fake.Broadcast("rndOld01").SetTour("tourOld1").Finish()
	fake.DescribeTour("tourOld1", fakelichess.TourSpec{Name: "Club Open", Official: true})
	fake.Broadcast("rndUsr01").SetTour("tourUser")
	fake.DescribeTour("tourUser", fakelichess.TourSpec{Name: "Arbiter's Blitz", Owner: "arbiter"})
	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.WatchToken})
	defer c.Close()
	tests := []struct {
		name     string
		q        lichess.BroadcastQuery
		answer   string   // the type of Answer
		want     []string // in the text, in order
		wantNot  []string
		endpoint string
	}{
		{"official", lichess.BroadcastQuery{Limit: 20}, "[]lichess.BroadcastTour",
			[]string{"World Cup 2026 (tier 5)", "Round rndDone1", "finished", "Round rndLive1", "on now", "\n\nClub Open"},
			[]string{"Arbiter's Blitz"}, "/api/broadcast"},
		{"live", lichess.BroadcastQuery{Limit: 20, Live: true}, "[]lichess.BroadcastTour",
			[]string{"World Cup 2026"}, []string{"Club Open"}, "/api/broadcast"},
		{"top", lichess.BroadcastQuery{Top: true, Page: 1}, "*lichess.BroadcastTop",
			[]string{"On now:\n", "World Cup 2026", "Round rndLive1: on now", "Past:\n", "Club Open", "finished"}, nil, "/api/broadcast/top"},
		{"search", lichess.BroadcastQuery{Search: "blitz", Page: 1}, "*lichess.BroadcastPage",
			[]string{"Arbiter's Blitz"}, []string{"World Cup"}, "/api/broadcast/search"},
		{"a user's", lichess.BroadcastQuery{User: "arbiter", Page: 1}, "*lichess.BroadcastPage",
			[]string{"World Cup 2026", "Arbiter's Blitz"}, []string{"Club Open"}, "/api/broadcast/by/arbiter"},
		{"a tournament", lichess.BroadcastQuery{TourID: "tourLive"}, "*lichess.BroadcastTour",
			[]string{"World Cup 2026 (tier 5)", "Round rndDone1", "Round rndLive1"}, []string{"Club Open"}, "/api/broadcast/tourLive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(fake.RequestsTo("GET", tc.endpoint))
			l, err := c.FindBroadcasts(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%T", l.Answer); got != tc.answer {
				t.Errorf("Answer is a %s, want a %s", got, tc.answer)
			}
			var b strings.Builder
			l.WriteText(i18n.For(i18n.English), &b)
			text := b.String()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("%q not found (in order) in:\n%s", w, text)
				}
				at += i + len(w)
			}
			for _, w := range tc.wantNot {
				if strings.Contains(text, w) {
					t.Errorf("%q in:\n%s", w, text)
				}
			}
			if len(fake.RequestsTo("GET", tc.endpoint)) == before {
				t.Errorf("%s not requested", tc.endpoint)
			}
		})
	}
	if _, err := c.FindBroadcasts(context.Background(), lichess.BroadcastQuery{TourID: "noSuchT"}); err == nil {
		t.Error("no error for a tournament that does not exist")
	}
}

// TestBroadcastListingInEveryLanguage: the listing's own words (the
// sections, the rounds' states, the tier) are in the reader's language;
// names, ids and addresses as Lichess gives them.
func TestBroadcastListingInEveryLanguage(t *testing.T) {
	fake := fakelichess.New(fakelichess.Options{})
	defer fake.Close()
	pgn := "[Event \"x\"]\n[GameURL \"https://lichess.org/broadcast/t/r/rndLive1/game0001\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
	fake.Broadcast("rndDone1").SetTour("tourLive").Finish()
	fake.Broadcast("rndLive1").SetTour("tourLive").SetPGN(pgn)
	fake.DescribeTour("tourLive", fakelichess.TourSpec{Name: "World Cup 2026", Tier: 5, Official: true})
	c := lichess.NewClient(lichess.Options{BaseURL: fake.URL, Token: fakelichess.WatchToken})
	defer c.Close()
	top, err := c.FindBroadcasts(context.Background(), lichess.BroadcastQuery{Top: true, Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	tour, err := c.FindBroadcasts(context.Background(), lichess.BroadcastQuery{TourID: "tourLive"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		lang      i18n.Lang
		top, tour []string
	}{
		{"english", i18n.English, []string{"On now:\n", "Round rndLive1: on now", "Past:\n"}, []string{"World Cup 2026 (tier 5)", "finished", "on now"}},
		{"russian", i18n.Russian, []string{"Идут сейчас:\n", "Round rndLive1: идёт сейчас", "Прошедшие:\n"}, []string{"World Cup 2026 (уровень 5)", "завершён", "идёт сейчас"}},
		{"turkish", i18n.Turkish, []string{"Şu an sürenler:\n", "Round rndLive1: şu an sürüyor", "Geçmiş:\n"}, []string{"World Cup 2026 (kademe 5)", "bitti"}},
		{"persian", i18n.Persian, []string{"در حال برگزاری:\n", "Round rndLive1: در حال برگزاری", "گذشته:\n"}, []string{"World Cup 2026 (سطح ۵)", "تمام‌شده"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, l := range []struct {
				listing *lichess.BroadcastListing
				want    []string
			}{{top, tc.top}, {tour, tc.tour}} {
				var b strings.Builder
				l.listing.WriteText(i18n.For(tc.lang), &b)
				for _, w := range l.want {
					if !strings.Contains(b.String(), w) {
						t.Errorf("%q not in:\n%s", w, b.String())
					}
				}
			}
		})
	}
}
