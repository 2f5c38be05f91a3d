package lichess_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi/datamodel/high/base"

	"github.com/threefold-chess/threefold/lichess"
	"github.com/threefold-chess/threefold/pgn"
)

// exampleDecoder turns one example answer of the description into what
// the client makes of it. JSON examples come as the decoded value (any);
// got is then compared with the example field by field. PGN examples come
// as text; check says what is wrong, if anything.
type exampleDecoder struct {
	// into returns a pointer to the client type the answer is decoded into
	// (with encoding/json, as the client does), given the example.
	into func(example any) any
	// pgn checks a PGN example instead.
	pgn func(e *contractEnv, text string) error
	// notDescribed lists json names of the client type that the
	// description's schema does not have, each with the reason it is
	// still read.
	notDescribed map[string]string
}

// exampleDecoders: every operation the client uses whose answers have
// examples in the description.
func exampleDecoders() map[string]exampleDecoder {
	roundPGN := exampleDecoder{pgn: broadcastPGNExample}
	return map[string]exampleDecoder{
		"POST /api/token/test": {into: func(any) any {
			// TestToken's own decoding (calls.go): userId, scopes, expires.
			return &map[string]*struct {
				UserID  string `json:"userId"`
				Scopes  string `json:"scopes"`
				Expires *int64 `json:"expires"`
			}{}
		}},
		"GET /api/account":      {into: func(any) any { return new(lichess.Account) }},
		"GET /api/stream/event": {into: func(any) any { return new(lichess.Event) }},
		"GET /api/challenge": {into: func(any) any {
			return &struct {
				In  []lichess.Challenge `json:"in"`
				Out []lichess.Challenge `json:"out"`
			}{}
		}, notDescribed: map[string]string{
			"declineReason":    "Challenge also reads challengeDeclined events, whose schema has it",
			"declineReasonKey": "Challenge also reads challengeDeclined events, whose schema has it",
		}},
		"GET /api/tv/feed":                           {into: tvLine},
		"GET /api/tv/{channel}/feed":                 {into: tvLine},
		"GET /game/export/{gameId}":                  {into: func(any) any { return new(lichess.ExportedGame) }, pgn: exportPGNExample},
		"GET /api/user/{username}/current-game":      {into: func(any) any { return new(lichess.ExportedGame) }, pgn: exportPGNExample},
		"GET /api/broadcast/{broadcastTournamentId}": {into: func(any) any { return new(lichess.BroadcastTour) }},
		"GET /api/broadcast/{broadcastTournamentSlug}/{broadcastRoundSlug}/{broadcastRoundId}": {
			into: func(any) any { return new(lichess.BroadcastRound) }},
		"GET /api/broadcast/round/{broadcastRoundId}.pgn": roundPGN,
		"GET /api/broadcast":                              {into: func(any) any { return new(lichess.BroadcastTour) }},
		"GET /api/broadcast/top":                          {into: func(any) any { return new(lichess.BroadcastTop) }},
		"GET /api/broadcast/search":                       {into: func(any) any { return new(lichess.BroadcastPage) }},
		"GET /api/broadcast/by/{username}": {into: func(any) any { return new(lichess.BroadcastPage) }, notDescribed: map[string]string{
			"round": "BroadcastPage's previews are those of the other listings, which have a round; a user's list leaves it empty",
			"group": "as round",
		}},
		"GET /api/stream/broadcast/round/{broadcastRoundId}.pgn": roundPGN,
		"GET /api/stream/broadcast/tour/{broadcastTourId}.pgn":   roundPGN,
		"GET /api/stream/broadcast/group/{broadcastGroupId}.pgn": roundPGN,
	}
}

// tvLine is a TV feed line as StreamTV reads it: the payload d decoded
// into TVFeatured or TVFen by t.
func tvLine(example any) any {
	if m, _ := example.(map[string]any); m["t"] == "fen" {
		return &struct {
			T string        `json:"t"`
			D lichess.TVFen `json:"d"`
		}{}
	}
	return &struct {
		T string             `json:"t"`
		D lichess.TVFeatured `json:"d"`
	}{}
}

// TestDescriptionExamples decodes every example answer the description
// gives for the operations the client uses into the client's own types,
// and checks that nothing the client reads is lost: the decoding succeeds,
// every field the client type holds comes out with the example's value,
// and every field name the client type reads is one the description's
// schema has (a misspelt name would silently read nothing).
func TestDescriptionExamples(t *testing.T) {
	e := newContractEnv(t)
	decoders := exampleDecoders()
	covered := map[string]int{}
	for path, item := range e.k.doc.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			key := strings.ToUpper(method) + " " + path
			dec, ok := decoders[key]
			if !ok || op.Responses == nil {
				continue
			}
			for code, resp := range op.Responses.Codes.FromOldest() {
				if resp.Content == nil {
					continue
				}
				for mt, media := range resp.Content.FromOldest() {
					if media.Examples == nil {
						continue
					}
					for name, ex := range media.Examples.FromOldest() {
						if ex.Value == nil {
							continue
						}
						var value any
						if err := ex.Value.Decode(&value); err != nil {
							t.Errorf("%s %s %s example %q: %v", key, code, mt, name, err)
							continue
						}
						covered[key]++
						where := fmt.Sprintf("%s %s (%s) example %q", key, code, mt, name)
						if text, isText := value.(string); isText {
							if dec.pgn == nil {
								t.Errorf("%s: a text example, and no PGN check for it", where)
							} else if err := dec.pgn(e, text); err != nil {
								t.Errorf("%s: %v", where, err)
							}
							continue
						}
						checkJSONExample(t, where, dec, value, media.Schema)
					}
				}
			}
		}
	}
	var missing []string
	for key := range decoders {
		if covered[key] == 0 {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no example found for %v: the description changed, or the table names an operation wrongly", missing)
	}
	t.Logf("%d operations, %d examples decoded", len(covered), sum(covered))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// checkJSONExample decodes one JSON example into the client type and
// compares.
func checkJSONExample(t *testing.T, where string, dec exampleDecoder, value any, schema *base.SchemaProxy) {
	t.Helper()
	if dec.into == nil {
		t.Errorf("%s: a JSON example, and no client type for it", where)
		return
	}
	raw, err := json.Marshal(value)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	target := dec.into(value)
	if err := json.Unmarshal(raw, target); err != nil {
		t.Errorf("%s does not decode into %T: %v", where, target, err)
		return
	}
	back, err := json.Marshal(target)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	var got any
	if err := json.Unmarshal(back, &got); err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	for _, l := range losses("", value, got) {
		t.Errorf("%s: %s lost: %s", where, strings.TrimPrefix(l.path, "."), l.what)
	}
	for _, n := range undescribed(reflect.TypeOf(target), []*base.SchemaProxy{schema}, "") {
		if dec.notDescribed[n[strings.LastIndex(n, ".")+1:]] == "" {
			t.Errorf("%s: the client reads %s, which the description's schema does not have there", where, n)
		}
	}
}

type loss struct{ path, what string }

// losses walks what the client kept (got, the client type encoded again)
// against the example: every value the client holds must be the
// example's. A field the example lacks is not compared; a field the
// client keeps with its zero value where the example has another is a
// loss.
func losses(path string, example, got any) []loss {
	switch g := got.(type) {
	case map[string]any:
		ex, ok := example.(map[string]any)
		if !ok {
			return []loss{{path, fmt.Sprintf("the example has %T, the client an object", example)}}
		}
		var out []loss
		keys := make([]string, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ev, ok := ex[k]; ok {
				out = append(out, losses(path+"."+k, ev, g[k])...)
			}
		}
		return out
	case []any:
		ex, ok := example.([]any)
		if !ok {
			return []loss{{path, fmt.Sprintf("the example has %T, the client a list", example)}}
		}
		if len(ex) != len(g) {
			return []loss{{path, fmt.Sprintf("%d items of %d", len(g), len(ex))}}
		}
		var out []loss
		for i := range g {
			out = append(out, losses(fmt.Sprintf("%s[%d]", path, i), ex[i], g[i])...)
		}
		return out
	case nil:
		if example == nil {
			return nil
		}
		return []loss{{path, fmt.Sprintf("%v became null", example)}}
	default:
		if example == nil && reflect.ValueOf(got).IsZero() {
			return nil // null read as the zero value
		}
		if !reflect.DeepEqual(normalise(example), got) {
			return []loss{{path, fmt.Sprintf("%v became %v", example, got)}}
		}
		return nil
	}
}

// normalise makes a YAML-decoded scalar comparable with a JSON-decoded one.
func normalise(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// undescribed walks a client type and the description's schema side by
// side and returns the json names the type reads where the schema has no
// such property (through pointers, slices, maps, allOf/oneOf/anyOf and
// references): a misspelt or misplaced name would silently read nothing.
// A type with its own UnmarshalJSON is read by its own code: not walked.
func undescribed(t reflect.Type, schemas []*base.SchemaProxy, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return undescribed(t.Elem(), schemaItems(schemas), path+"[]")
	case reflect.Map:
		return undescribed(t.Elem(), schemaValues(schemas), path+"{}")
	case reflect.Struct:
	default:
		return nil
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) || t == reflect.TypeFor[json.RawMessage]() {
		return nil
	}
	props := schemaProps(schemas)
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() || name == "" {
			continue
		}
		p, ok := props[name]
		if !ok {
			out = append(out, strings.TrimPrefix(path+"."+name, "."))
			continue
		}
		out = append(out, undescribed(f.Type, p, path+"."+name)...)
	}
	return out
}

// flatten resolves schemas and the alternatives and parts they combine.
func flatten(schemas []*base.SchemaProxy) []*base.Schema {
	var out []*base.Schema
	seen := map[*base.Schema]bool{}
	var walk func(p *base.SchemaProxy)
	walk = func(p *base.SchemaProxy) {
		if p == nil {
			return
		}
		s := p.Schema()
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		for _, list := range [][]*base.SchemaProxy{s.AllOf, s.OneOf, s.AnyOf} {
			for _, q := range list {
				walk(q)
			}
		}
	}
	for _, p := range schemas {
		walk(p)
	}
	return out
}

func schemaProps(schemas []*base.SchemaProxy) map[string][]*base.SchemaProxy {
	props := map[string][]*base.SchemaProxy{}
	for _, s := range flatten(schemas) {
		if s.Properties != nil {
			for name, p := range s.Properties.FromOldest() {
				props[name] = append(props[name], p)
			}
		}
	}
	return props
}

func schemaItems(schemas []*base.SchemaProxy) []*base.SchemaProxy {
	var out []*base.SchemaProxy
	for _, s := range flatten(schemas) {
		if s.Items != nil && s.Items.IsA() {
			out = append(out, s.Items.A)
		}
		out = append(out, s.PrefixItems...)
	}
	return out
}

func schemaValues(schemas []*base.SchemaProxy) []*base.SchemaProxy {
	var out []*base.SchemaProxy
	for _, s := range flatten(schemas) {
		if s.AdditionalProperties != nil && s.AdditionalProperties.IsA() {
			out = append(out, s.AdditionalProperties.A)
		}
		if s.Properties != nil { // a map read from an object of named properties
			for _, p := range s.Properties.FromOldest() {
				out = append(out, p)
			}
		}
		if s.PatternProperties != nil {
			for _, p := range s.PatternProperties.FromOldest() {
				out = append(out, p)
			}
		}
	}
	return out
}

// broadcastPGNExample serves a broadcast PGN example as a round of the
// fake and reads it with the client, as a watcher does: every game of the
// example must come out whole, with its GameURL.
func broadcastPGNExample(e *contractEnv, text string) error {
	want, err := pgnGames(text)
	if err != nil {
		return fmt.Errorf("the example itself: %w", err)
	}
	e.fake.Broadcast("rndExmpl").SetPGN(text)
	got, err := firstEvents(e.ctx, len(want), func(ctx context.Context, fn func(string) error) error {
		return e.watch.StreamBroadcastRound(ctx, "rndExmpl", fn)
	})
	if err != nil {
		return err
	}
	var games []*pgn.Game
	for _, g := range got {
		gs, err := pgnGames(g)
		if err != nil {
			return fmt.Errorf("the client delivered a PGN that does not parse: %w", err)
		}
		games = append(games, gs...)
	}
	return sameGames(want, games)
}

// exportPGNExample checks a game export in PGN parses into its moves.
func exportPGNExample(_ *contractEnv, text string) error {
	games, err := pgnGames(text)
	if err != nil {
		return err
	}
	if len(games) != 1 || len(games[0].Moves) == 0 {
		return fmt.Errorf("%d games, want one with moves", len(games))
	}
	return nil
}

// pgnGames parses PGN text; a game with a syntax error is an error.
func pgnGames(text string) ([]*pgn.Game, error) {
	games, err := pgn.ParseGames(text)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		if g.Err != nil {
			return nil, g.Err
		}
	}
	return games, nil
}

// sameGames compares games by their GameURL (or Site), moves and result.
func sameGames(want, got []*pgn.Game) error {
	key := func(g *pgn.Game) string {
		if u, ok := g.Tag("GameURL"); ok {
			return u
		}
		u, _ := g.Tag("Site")
		return u
	}
	byKey := map[string]*pgn.Game{}
	for _, g := range got {
		byKey[key(g)] = g
	}
	for _, w := range want {
		g := byKey[key(w)]
		switch {
		case g == nil:
			return fmt.Errorf("game %s not delivered", key(w))
		case !slices.Equal(g.Moves, w.Moves) || g.Result != w.Result:
			return fmt.Errorf("game %s delivered as %v %s, the example has %v %s", key(w), g.Moves, g.Result, w.Moves, w.Result)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d games delivered, the example has %d", len(got), len(want))
	}
	return nil
}

// The comparison finds a value the client type did not keep.
func TestExampleLosses(t *testing.T) {
	example := map[string]any{"id": "abc", "n": 3, "players": []any{map[string]any{"name": "A"}, map[string]any{"name": "B"}},
		"clock": map[string]any{"initial": 60}, "extra": "not read"}
	for _, row := range []struct {
		name string
		got  string // the client type encoded again
		want []string
	}{
		{"all kept", `{"id":"abc","n":3,"players":[{"name":"A"},{"name":"B"}],"clock":{"initial":60}}`, nil},
		{"a field not read", `{"id":"","n":3}`, []string{".id"}},
		{"a nested value changed", `{"id":"abc","clock":{"initial":0}}`, []string{".clock.initial"}},
		{"a list cut short", `{"players":[{"name":"A"}]}`, []string{".players"}},
		{"an object lost", `{"clock":null}`, []string{".clock"}},
	} {
		t.Run(row.name, func(t *testing.T) {
			var got any
			if err := json.Unmarshal([]byte(row.got), &got); err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, l := range losses("", example, got) {
				paths = append(paths, l.path)
			}
			if !slices.Equal(paths, row.want) {
				t.Errorf("losses at %v, want %v", paths, row.want)
			}
		})
	}
}
