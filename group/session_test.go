package group

import (
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/threefold-chess/threefold/internal/configkeys"
	"github.com/threefold-chess/threefold/store"
	"github.com/threefold-chess/threefold/store/delivery"
)

// The settings of the config file become the membership's config: the
// two budgets by lease kind.
func TestSettingsConfig(t *testing.T) {
	s := Settings{Group: true, LeaseTTL: time.Minute, StreamBudget: 3, GameBudget: 5, OutboxHold: time.Hour}
	sinks := map[string]delivery.Sink{"json webhook 0": nil}
	log := slog.New(slog.DiscardHandler)
	got := s.Config(sinks, log)
	want := Config{LeaseTTL: time.Minute, OutboxHold: time.Hour, Sinks: sinks, Log: log,
		Budget: map[string]int{store.LeaseSource: 3, store.LeaseGame: 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Config = %+v, want %+v", got, want)
	}
}

// Every numeric key of Settings has a range, and the defaults lie within
// them.
func TestDefaultSettingsWithinRanges(t *testing.T) {
	ranges, err := configkeys.Ranges(reflect.TypeOf(Settings{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(ranges) != 4 {
		t.Errorf("ranges %v, want one for each key but group", ranges)
	}
	if err := configkeys.CheckRanges(reflect.ValueOf(DefaultSettings())); err != nil {
		t.Error(err)
	}
}
