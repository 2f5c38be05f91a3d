// Package testlog is a log buffer that goroutines write to while a test reads it.
//
// It holds the log sink the tests of this module share: a
// buffer that goroutines may write to (a logger, a program's stdout or
// stderr) while the test reads what has been written so far. It is for
// tests only; nothing in a program imports it.
package testlog

import (
	"bytes"
	"context"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writers and readers. The
// zero value is empty and ready to use; it must not be copied after use.
type Buffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed at the next write, for WaitFor
}

// Write appends p; it never fails.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	return s.b.Write(p)
}

// WaitFor blocks until what was written contains sub, or ctx is done.
func (s *Buffer) WaitFor(ctx context.Context, sub string) error {
	for {
		s.mu.Lock()
		if strings.Contains(s.b.String(), sub) {
			s.mu.Unlock()
			return nil
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
