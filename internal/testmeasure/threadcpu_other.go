//go:build !linux

// Package testmeasure is what benchmarks report beside the wall time:
// a thread's CPU time and the live heap.
package testmeasure

import "time"

// Now is measured on Linux only: elsewhere ok is false.
func Now() (d time.Duration, ok bool) { return 0, false }

// ProcessNow is measured on Linux only: elsewhere ok is false.
func ProcessNow() (d time.Duration, ok bool) { return 0, false }
