// Package configkeys reads the dotted keys of a configuration struct from its mapstructure tags, and checks them.
//
// A configuration is a struct whose fields carry `mapstructure:"name"`
// tags; a struct field is a section ("watch"), any other field a leaf
// ("watch.queue_size"). Leaves walks the leaves, Keys and Values list them,
// Unknown finds the keys a file sets that the struct does not know, and
// CheckRanges refuses a number or duration outside its sane range. It
// reads no file and imports no configuration library: cmd/threefold reads
// the file (viper) and asks this package about it.
package configkeys

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Leaves calls visit with the dotted key and the value of every leaf of a
// configuration struct, in declaration order; prefix is put before every
// key.
func Leaves(v reflect.Value, prefix string, visit func(key string, v reflect.Value)) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("mapstructure")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		if f.Type.Kind() == reflect.Struct {
			Leaves(v.Field(i), key+".", visit)
			continue
		}
		visit(key, v.Field(i))
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
// allocated up front).
type Range struct{ Min, Max int64 }

// Ints is the range of an integer key.
func Ints(lo, hi int64) Range { return Range{lo, hi} }

// Durations is the range of a duration key.
func Durations(lo, hi time.Duration) Range { return Range{int64(lo), int64(hi)} }

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
// whose value is outside its range in ranges, naming the key, the value
// and the range. A leaf without a range is not checked.
func CheckRanges(v reflect.Value, ranges map[string]Range) error {
	var err error
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
	if t == reflect.TypeOf(time.Duration(0)) {
		return time.Duration(n).String()
	}
	return strconv.FormatInt(n, 10)
}
