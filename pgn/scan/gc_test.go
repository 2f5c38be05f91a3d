package scan

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: a scan runs the collector less often unless GOGC or
// GOMEMLIMIT is set, and puts the settings back when it ends.
func TestTuneGC(t *testing.T) {
	current := func() (percent int, limit int64) {
		percent = debug.SetGCPercent(-1)
		debug.SetGCPercent(percent)
		return percent, debug.SetMemoryLimit(-1) // -1 reads it
	}
	before, beforeLimit := current()
	for _, tc := range []struct {
		name        string
		env         map[string]string
		wantPercent int
		wantLimit   int64
	}{
		{"neither set", nil, gcPercent, memoryLimit},
		{"GOGC set", map[string]string{"GOGC": "50"}, before, memoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, gcPercent, beforeLimit},
		{"both set", map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}, before, beforeLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore := TuneGC(func(k string) string { return tc.env[k] })
			percent, limit := current()
			restore()
			if percent != tc.wantPercent || limit != tc.wantLimit {
				t.Errorf("during the scan: GOGC %d, limit %d; want %d, %d", percent, limit, tc.wantPercent, tc.wantLimit)
			}
			if p, l := current(); p != before || l != beforeLimit {
				t.Errorf("after: GOGC %d, limit %d; want %d, %d as before", p, l, before, beforeLimit)
			}
		})
	}
}
