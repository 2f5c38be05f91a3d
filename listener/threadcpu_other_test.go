//go:build !linux

package listener

import "time"

// threadCPU is measured on Linux only.
func threadCPU() (time.Duration, bool) { return 0, false }
