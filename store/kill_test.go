package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/threefold-chess/threefold"
	"github.com/threefold-chess/threefold/internal/testenv"
)

const (
	killHelperEnv = "THREEFOLD_STORE_KILL_HELPER"
	killDSNEnv    = "THREEFOLD_STORE_KILL_DSN"
	killDirEnv    = "THREEFOLD_STORE_KILL_DIR"
)

// TestKillHelperProcess is the process TestSIGKILL kills: it stores alerts
// from two goroutines as fast as it can and prints the id of each one
// PutAlert acknowledged, until it is killed.
func TestKillHelperProcess(t *testing.T) {
	if os.Getenv(killHelperEnv) != "1" {
		t.Skip("a helper process of TestSIGKILL*, run by it")
	}
	s, err := Open(context.Background(), Config{DSN: os.Getenv(killDSNEnv), DataDir: os.Getenv(killDirEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				a := testAlert("lichess", fmt.Sprintf("kill%d", w), threefold.KindThreefold, i, epoch)
				if _, err := s.PutAlert(context.Background(), a); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "stored %s\n", a.ID) // os.Stdout is not buffered
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// killDuringWrites runs the helper on the database cfg names, kills it
// with SIGKILL after it acknowledged acks alerts, and checks that every
// acknowledged alert is in the database, once, and that it opens cleanly.
func killDuringWrites(t *testing.T, cfg Config, acks int) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), killHelperEnv+"=1", killDSNEnv+"="+cfg.DSN, killDirEnv+"="+cfg.DataDir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		id, ok := strings.CutPrefix(sc.Text(), "stored ")
		if !ok {
			continue // the test framework's own lines
		}
		acked = append(acked, id)
		if len(acked) == acks && !killed {
			cmd.Process.Kill() // SIGKILL; the lines already written are read on
			killed = true
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatalf("the helper ended after %d acknowledged alerts: %s", len(acked), stderr.String())
	}
	s := openTest(t, cfg)
	ctx := context.Background()
	for _, id := range acked {
		if _, err := s.Alert(ctx, id); err != nil {
			t.Errorf("acknowledged alert %s is lost: %v", id, err)
		}
	}
	var stored, distinct int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT id) FROM alerts").Scan(&stored, &distinct); err != nil {
		t.Fatal(err)
	}
	if stored != distinct || stored < len(acked) {
		t.Errorf("%d rows, %d distinct ids, %d acknowledged", stored, distinct, len(acked))
	}
	if s.dialect == dialectSQLite {
		var check string
		if err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("integrity check after SIGKILL: %q, %v", check, err)
		}
	}
	t.Logf("killed after %d acknowledged alerts; %d stored (the rest were in flight)", len(acked), stored)
}

func TestSIGKILLSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	killDuringWrites(t, Config{DataDir: t.TempDir()}, 300)
}

func TestSIGKILLPostgres(t *testing.T) {
	testenv.PostgresDSN(t)
	if testing.Short() {
		t.Skip("starts a process")
	}
	killDuringWrites(t, freshPostgres(t), 300)
}
