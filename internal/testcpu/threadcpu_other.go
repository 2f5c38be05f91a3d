//go:build !linux

// Package testcpu reads the CPU time of the calling OS thread, for
// benchmarks that report it beside the wall time (cpu-ns/op).
package testcpu

import "time"

// Now is measured on Linux only: elsewhere ok is false.
func Now() (d time.Duration, ok bool) { return 0, false }
