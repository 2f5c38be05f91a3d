package listener

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time the calling OS thread has used (user and
// system, CLOCK_THREAD_CPUTIME_ID: exact to the nanosecond, where
// getrusage's thread times lag by up to a clock tick): unlike the wall
// time a benchmark measures, it does not count the time the thread waited
// for a CPU on a busy machine. The caller locks its goroutine to the
// thread.
func threadCPU() (time.Duration, bool) {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
