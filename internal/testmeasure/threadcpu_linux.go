// Package testmeasure is what benchmarks report beside the wall time:
// the CPU time of the calling OS thread (cpu-ns/op; unlike the wall time,
// it does not count the time the thread waited for a CPU on a busy
// machine), and the heap still live after a collection (live-B).
package testmeasure

import (
	"syscall"
	"time"
	"unsafe"
)

// Now is the CPU time the calling OS thread has used (user and system,
// CLOCK_THREAD_CPUTIME_ID: exact to the nanosecond, where getrusage's
// thread times lag by up to a clock tick). The caller locks its goroutine
// to the thread (runtime.LockOSThread). ok is false where it cannot be
// read.
func Now() (d time.Duration, ok bool) {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// ProcessNow is the CPU time the whole process has used, every thread's
// (CLOCK_PROCESS_CPUTIME_ID): for a benchmark whose work runs on several
// goroutines. ok is false where it cannot be read.
func ProcessNow() (d time.Duration, ok bool) {
	const clockProcessCPUTime = 2 // CLOCK_PROCESS_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
