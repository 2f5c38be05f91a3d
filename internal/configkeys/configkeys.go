// Package configkeys reads the dotted keys of a configuration struct from its mapstructure tags, and checks them.
//
// A configuration is a struct whose fields carry `mapstructure:"name"`
// tags; a struct field is a section ("watch"), any other field a leaf
// ("watch.queue_size"). An embedded struct tagged `mapstructure:",squash"`
// adds its fields to its parent's section, so that the keys of one
// section can come from the types of several packages. Leaves walks the leaves, Keys and Values list them,
// Unknown finds the keys a file sets that the struct does not know, and
// CheckRanges refuses a number or duration outside the sane range its
// `range:"lo,hi"` tag gives. It
// reads no file and imports no configuration library: cmd/threefold reads
// the file (viper) and asks this package about it.
package configkeys

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Leaves calls visit with the dotted key and the value of every leaf of a
// configuration struct, in declaration order; prefix is put before every
// key.
func Leaves(v reflect.Value, prefix string, visit func(key string, v reflect.Value)) {
	leaves(v, prefix, func(key string, _ reflect.StructField, v reflect.Value) { visit(key, v) })
}

func leaves(v reflect.Value, prefix string, visit func(key string, f reflect.StructField, v reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if f.Anonymous && f.Type.Kind() == reflect.Struct && name == "" && slices.Contains(strings.Split(opts, ","), "squash") {
			leaves(v.Field(i), prefix, visit)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		if f.Type.Kind() == reflect.Struct {
			leaves(v.Field(i), key+".", visit)
			continue
		}
		visit(key, f, v.Field(i))
	}
}

// Keys lists the dotted keys of the leaves of a configuration struct type.
func Keys(t reflect.Type) []string {
	var keys []string
	Leaves(reflect.Zero(t), "", func(key string, _ reflect.Value) { keys = append(keys, key) })
	return keys
}

// Values maps the dotted key of each leaf of a configuration struct to its
// value.
func Values(v reflect.Value) map[string]any {
	out := map[string]any{}
	Leaves(v, "", func(key string, f reflect.Value) { out[key] = f.Interface() })
	return out
}

// Unknown lists, sorted, the keys of set that known does not have. A key below a known one (an entry of a map-valued setting, such as
// a list of webhooks) counts as known.
func Unknown(set, known []string) []string {
	k := make(map[string]bool, len(known))
	for _, key := range known {
		k[key] = true
	}
	var out []string
	for _, key := range set {
		if !k[key] && !underKnown(key, k) {
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

func underKnown(key string, known map[string]bool) bool {
	for i := strings.LastIndexByte(key, '.'); i > 0; i = strings.LastIndexByte(key[:i], '.') {
		if known[key[:i]] {
			return true
		}
	}
	return false
}

// Range is the sane range of a numeric or duration key, bounds included:
// a value outside it is refused at start (10^12 as a queue size would be
// allocated up front). A leaf gives it in its tag: `range:"1,1000000"`,
// or for a duration `range:"10ms,24h"`.
type Range struct{ Min, Max int64 }

// Ranges reads the range tag of every leaf of the configuration struct
// type t, by key. A tag that is not two bounds of the leaf's kind, the
// lower first, is an error naming the key.
func Ranges(t reflect.Type) (map[string]Range, error) {
	out := map[string]Range{}
	var err error
	leaves(reflect.Zero(t), "", func(key string, f reflect.StructField, _ reflect.Value) {
		tag, ok := f.Tag.Lookup("range")
		if !ok || err != nil {
			return
		}
		var r Range
		if r, err = parseRange(f.Type, tag); err != nil {
			err = fmt.Errorf("%s: range tag %q: %w", key, tag, err)
			return
		}
		out[key] = r
	})
	return out, err
}

var durationType = reflect.TypeOf(time.Duration(0))

func parseRange(t reflect.Type, tag string) (Range, error) {
	lo, hi, ok := strings.Cut(tag, ",")
	if !ok {
		return Range{}, fmt.Errorf("want lo,hi")
	}
	parse := func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }
	switch {
	case t == durationType:
		parse = func(s string) (int64, error) {
			d, err := time.ParseDuration(s)
			return int64(d), err
		}
	case !IsNumeric(t):
		return Range{}, fmt.Errorf("a %s has no range", t)
	}
	var r Range
	var errLo, errHi error
	r.Min, errLo = parse(strings.TrimSpace(lo))
	r.Max, errHi = parse(strings.TrimSpace(hi))
	if err := errors.Join(errLo, errHi); err != nil {
		return Range{}, err
	}
	if r.Min > r.Max {
		return Range{}, fmt.Errorf("%s is above %s", lo, hi)
	}
	return r, nil
}

// IsNumeric reports whether a leaf holds a number or a duration: such a
// leaf must have a range.
func IsNumeric(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// CheckRanges refuses the first numeric or duration leaf of the struct v
// whose value is outside the range of its tag, naming the key, the value
// and the range. A leaf without a range is not checked; a malformed range
// tag is an error (Ranges).
func CheckRanges(v reflect.Value) error {
	ranges, err := Ranges(v.Type())
	if err != nil {
		return err
	}
	Leaves(v, "", func(key string, v reflect.Value) {
		if err != nil || !IsNumeric(v.Type()) {
			return
		}
		r, ok := ranges[key]
		if !ok {
			return
		}
		var n int64
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n = v.Int()
		default:
			err = fmt.Errorf("%s: unsupported kind %s", key, v.Kind())
			return
		}
		if n < r.Min || n > r.Max {
			err = fmt.Errorf("%s = %s is out of range: it must be between %s and %s", key,
				show(v.Type(), n), show(v.Type(), r.Min), show(v.Type(), r.Max))
		}
	})
	return err
}

func show(t reflect.Type, n int64) string {
	if t == durationType {
		return time.Duration(n).String()
	}
	return strconv.FormatInt(n, 10)
}
