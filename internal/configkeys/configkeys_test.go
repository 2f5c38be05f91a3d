package configkeys

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

type section struct {
	Size  int           `mapstructure:"size" range:"1,10"`
	Every time.Duration `mapstructure:"every" range:"1ms,1h"`
	part  `mapstructure:",squash"`
	Inner struct {
		Name string `mapstructure:"name"`
	} `mapstructure:"inner"`
}

// part is a piece of a section declared elsewhere (squashed into it).
type part struct {
	Depth int `mapstructure:"depth" range:"0,9"`
	Note  string
}

type sample struct {
	Dir      string            `mapstructure:"dir"`
	Section  section           `mapstructure:"section"`
	Hooks    []map[string]any  `mapstructure:"hooks"`
	Labels   map[string]string `mapstructure:"labels"`
	Ignored  int               `mapstructure:"-"`
	Untagged int
	resolved string
}

func TestKeysAndValues(t *testing.T) {
	s := sample{Dir: "/data", Section: section{Size: 3, Every: time.Second}}
	s.Section.Inner.Name = "x"
	s.Section.Depth = 7
	want := []string{"dir", "section.size", "section.every", "section.depth", "section.inner.name", "hooks", "labels"}
	if got := Keys(reflect.TypeOf(s)); !slices.Equal(got, want) {
		t.Errorf("Keys = %v, want %v", got, want)
	}
	v := Values(reflect.ValueOf(s))
	if len(v) != len(want) || v["dir"] != "/data" || v["section.size"] != 3 || v["section.every"] != time.Second || v["section.inner.name"] != "x" ||
		v["section.depth"] != 7 {
		t.Errorf("Values = %v", v)
	}
	var prefixed []string
	Leaves(reflect.ValueOf(s.Section), "section.", func(key string, _ reflect.Value) { prefixed = append(prefixed, key) })
	if !slices.Equal(prefixed, want[1:5]) {
		t.Errorf("Leaves with a prefix: %v", prefixed)
	}
}

func TestUnknown(t *testing.T) {
	known := Keys(reflect.TypeOf(sample{}))
	for _, tc := range []struct {
		name string
		set  []string
		want []string
	}{
		{"all known", []string{"dir", "section.size"}, nil},
		{"below a map-valued key", []string{"labels.team", "hooks.0.url"}, nil},
		{"a typo, and a section's name alone", []string{"section.sise", "dir", "section", "aaa"}, []string{"aaa", "section", "section.sise"}},
		{"below a leaf that is not a map is still below it", []string{"dir.x"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unknown(tc.set, known); !slices.Equal(got, tc.want) {
				t.Errorf("Unknown(%v) = %v, want %v", tc.set, got, tc.want)
			}
		})
	}
}

func TestCheckRanges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		every time.Duration
		want  string // "" for no error
	}{
		{"within", 5, time.Second, ""},
		{"bounds included", 10, time.Hour, ""},
		{"below", 0, time.Second, "section.size = 0 is out of range: it must be between 1 and 10"},
		{"above", 11, time.Second, "section.size = 11 is out of range: it must be between 1 and 10"},
		{"a duration, said as one", 5, -5 * time.Minute, "section.every = -5m0s is out of range: it must be between 1ms and 1h0m0s"},
		{"the first key out of range", 0, 0, "section.size = 0 is out of range: it must be between 1 and 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sample{Section: section{Size: tc.size, Every: tc.every}}
			err := CheckRanges(reflect.ValueOf(s))
			if got := errText(err); got != tc.want {
				t.Errorf("CheckRanges = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("a key without a range", func(t *testing.T) {
		type free struct {
			N int `mapstructure:"n"`
		}
		if err := CheckRanges(reflect.ValueOf(free{N: -1})); err != nil {
			t.Errorf("CheckRanges = %v", err)
		}
	})
	t.Run("an unsigned key", func(t *testing.T) {
		type u struct {
			N uint `mapstructure:"n" range:"0,2"`
		}
		if err := CheckRanges(reflect.ValueOf(u{N: 1})); errText(err) != "n: unsupported kind uint" {
			t.Errorf("CheckRanges = %v", err)
		}
	})
}

func TestRanges(t *testing.T) {
	got, err := Ranges(reflect.TypeOf(sample{}))
	want := map[string]Range{"section.size": {1, 10}, "section.every": {int64(time.Millisecond), int64(time.Hour)}, "section.depth": {0, 9}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Ranges = %v, %v; want %v", got, err, want)
	}
	for _, tc := range []struct {
		name string
		typ  any
		want string
	}{
		{"one bound", struct {
			N int `mapstructure:"n" range:"5"`
		}{}, `n: range tag "5": want lo,hi`},
		{"not a number", struct {
			N int `mapstructure:"n" range:"1,ten"`
		}{}, `n: range tag "1,ten": strconv.ParseInt: parsing "ten": invalid syntax`},
		{"a duration without a unit", struct {
			D time.Duration `mapstructure:"d" range:"1,2s"`
		}{}, `d: range tag "1,2s": time: missing unit in duration "1"`},
		{"bounds the wrong way", struct {
			N int `mapstructure:"n" range:"9,1"`
		}{}, `n: range tag "9,1": 9 is above 1`},
		{"a string has no range", struct {
			S string `mapstructure:"s" range:"1,2"`
		}{}, `s: range tag "1,2": a string has no range`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Ranges(reflect.TypeOf(tc.typ))
			if got := errText(err); got != tc.want {
				t.Errorf("Ranges = %q, want %q", got, tc.want)
			}
			if err := CheckRanges(reflect.ValueOf(tc.typ)); errText(err) != tc.want {
				t.Errorf("CheckRanges = %v, want the same error", err)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
