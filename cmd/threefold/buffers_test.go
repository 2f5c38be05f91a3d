package main

import "github.com/threefold-chess/threefold/internal/testlog"

// syncBuffer is the module's shared concurrency-safe log and output
// buffer, under the name this package's tests use for it. safeBuffer is
// the same under the name group_failover_test.go uses.
type (
	syncBuffer = testlog.Buffer
	safeBuffer = testlog.Buffer
)
