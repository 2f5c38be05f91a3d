package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A first Ctrl-C asks for a clean stop, which a scan blocked reading a pipe
// that sends nothing cannot make; a second one ends the process at once.
// The signal is sent once the scan has read from the pipe (so its handler
// is there), then again and again until the process ends (a second one
// may come before the first is handled); without the fix it never does.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildThreefold(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close() // open to the end: the scan's read never returns
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "scan", "-")
	cmd.Stdin, cmd.Stderr = r, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer r.Close() // kept to see what is left in the pipe
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	guard := time.After(60 * time.Second) // a hang guard, not a timed assertion
	if _, err := w.Write([]byte("[")); err != nil {
		t.Fatal(err)
	}
	for { // the scan reads stdin only once it handles the signals
		n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ) // FIONREAD: the bytes not yet read
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("ended before reading: %v; stderr: %s", err, stderr.String())
		case <-guard:
			cmd.Process.Kill()
			t.Fatal("the scan never read its input")
		case <-time.After(10 * time.Millisecond): // polling, not an assertion
		}
	}
	for signals := 1; ; signals++ {
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil && !strings.Contains(err.Error(), "finished") {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if signals < 2 {
				t.Errorf("ended after %d signal (%v): a first one asks for a clean stop", signals, err)
			}
			return
		case <-guard:
			cmd.Process.Kill()
			<-done
			t.Fatalf("still running after %d signals; stderr: %s", signals, stderr.String())
		case <-time.After(100 * time.Millisecond): // polling, not an assertion
		}
	}
}
