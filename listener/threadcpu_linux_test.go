package listener

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used (user and
// system): unlike the wall time a benchmark measures, it does not count
// the time the thread waited for a CPU on a busy machine. The caller
// locks its goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
