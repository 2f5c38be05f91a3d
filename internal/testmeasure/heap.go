package testmeasure

import "runtime"

// LiveHeap is the heap still in use after a full collection, in bytes.
func LiveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
