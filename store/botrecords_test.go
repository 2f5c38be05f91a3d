package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestBotRecordMirrorsBot keeps BotRecord, BotPlayer and BotClaim in step
// with bot.Record, bot.Player and bot.Claim: the same JSON names and
// options in the same order. It reads the bot's source rather than
// importing it, so the store never depends on the bot.
func TestBotRecordMirrorsBot(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("../bot/*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("read the bot's source: %v", err)
	}
	botTags := map[string][]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("read the bot's source: %v", err)
		}
		{
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				var tags []string
				for _, fld := range st.Fields.List {
					if fld.Tag == nil {
						continue
					}
					raw, _ := strconv.Unquote(fld.Tag.Value)
					tags = append(tags, reflect.StructTag(raw).Get("json"))
				}
				botTags[ts.Name.Name] = tags
				return true
			})
		}
	}
	for _, tc := range []struct {
		bot  string
		ours any
	}{
		{"Record", BotRecord{}},
		{"Player", BotPlayer{}},
		{"Claim", BotClaim{}},
	} {
		want, ok := botTags[tc.bot]
		if !ok {
			t.Errorf("bot.%s not found in ../bot", tc.bot)
			continue
		}
		var got []string
		rt := reflect.TypeOf(tc.ours)
		for i := 0; i < rt.NumField(); i++ {
			got = append(got, rt.Field(i).Tag.Get("json"))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			sort.Strings(got)
			sort.Strings(want)
			t.Errorf("%s has JSON fields %v, bot.%s has %v", rt.Name(), got, tc.bot, want)
		}
	}
}
