package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/threefold-chess/threefold/store"
)

// readOnlyHelperEnv makes this test binary, run again as another user,
// run one command on a store it may not write to.
const readOnlyHelperEnv = "THREEFOLD_TEST_READONLY_CONFIG"

// TestReadOnlyHelper is the child of TestReadersOpenReadOnlyStore: it runs
// the command of its arguments and prints its exit status and output.
func TestReadOnlyHelper(t *testing.T) {
	cfg := os.Getenv(readOnlyHelperEnv)
	if cfg == "" {
		t.Skip("only as the child of TestReadersOpenReadOnlyStore")
	}
	args := strings.Fields(os.Getenv(readOnlyHelperEnv + "_ARGS"))
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), append([]string{"--config", cfg}, args...), nil, &stdout, &stderr)
	fmt.Printf("EXIT %d\nSTDOUT %s\nSTDERR %s\n", code, stdout.String(), stderr.String())
}

// TestReadersOpenReadOnlyStore: history, export and status read a store
// they may not write to (a read-only file or file system, another user's
// store); they used to switch it to WAL and migrate it, and failed. Run as
// root, the commands run as the user nobody, who may only read the store.
func TestReadersOpenReadOnlyStore(t *testing.T) {
	f := newStoreFixture(t)
	path := filepath.Join(f.dir, store.FileName)
	for _, args := range []string{"history --json", "export https://lichess.org/abcdefgh", "status --json"} {
		t.Run(strings.Fields(args)[0], func(t *testing.T) {
			out := runReadOnly(t, f, path, args)
			if !strings.Contains(out, "EXIT 0\n") {
				t.Fatalf("%s on a read-only store:\n%s", args, out)
			}
			if args == "history --json" && !strings.Contains(out, f.alerts[0].ID) {
				t.Fatalf("history lacks the alerts:\n%s", out)
			}
		})
	}
}

// runReadOnly runs one command on the fixture's store, which it may only
// read: as nobody when this test runs as root (root may write anything),
// else in-process after taking the write permissions away.
func runReadOnly(t *testing.T, f *storeFixture, path, args string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		for _, p := range []string{path, f.dir} {
			st, _ := os.Stat(p)
			os.Chmod(p, st.Mode().Perm()&^0o222)
			t.Cleanup(func() { os.Chmod(p, st.Mode().Perm()) })
		}
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), append([]string{"--config", f.config}, strings.Fields(args)...), nil, &stdout, &stderr)
		return fmt.Sprintf("EXIT %d\nSTDOUT %s\nSTDERR %s\n", code, stdout.String(), stderr.String())
	}
	// A copy of this test binary that nobody may run, in a folder nobody
	// may enter, next to the store (readable by all, writable by root).
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "threefold.test")
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(dst, src)
	src.Close()
	dst.Close()
	for _, p := range []string{filepath.Dir(filepath.Dir(bin)), filepath.Dir(bin), filepath.Dir(f.dir), f.dir} {
		os.Chmod(p, 0o755)
	}
	os.Chmod(path, 0o644)
	os.Chmod(f.config, 0o644)
	cmd := exec.Command(bin, "-test.run=^TestReadOnlyHelper$", "-test.v")
	cmd.Dir = f.dir
	cmd.Env = []string{readOnlyHelperEnv + "=" + f.config, readOnlyHelperEnv + "_ARGS=" + args, "HOME=" + f.dir, "XDG_CONFIG_HOME=" + f.dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "EXIT") {
		t.Fatalf("the child did not run: %v\n%s", err, out)
	}
	return string(out)
}
