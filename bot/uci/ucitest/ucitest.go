// Package ucitest is a scripted UCI engine for tests. A test binary turns
// itself into the engine: its TestMain calls RunIfRequested, and the test
// starts os.Args[0] with the environment variable EnvVar set, so no external
// binary is needed. Behaviour (the evaluation it reports, a crash after N
// searches, a hang, a silent start) comes from the same environment.
package ucitest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// EnvVar names the variable that makes a test binary act as the engine. Its
// value is a comma-separated list of settings:
//
//	cp=N        report "score cp N" (default 0)
//	mate=N      report "score mate N" instead
//	crash=N     exit(3) on receiving the N-th "go" (1 = the first)
//	hang        never answer "go" until "stop"
//	silent      never answer "uci"
//	move=UCI    always answer this move (default: the first searchmove, else picker or e2e4)
//	name=NAME   the "id name"
const EnvVar = "THREEFOLD_FAKE_UCI"

// Behavior is the parsed form of EnvVar.
type Behavior struct {
	CP, Mate  int
	HasMate   bool
	CrashAt   int
	Hang      bool
	Silent    bool
	Move      string
	Name      string
	CrashFile string // if set, the crash counter is kept in this file across restarts
}

// Parse reads a Behavior from the EnvVar syntax.
func Parse(s string) Behavior {
	b := Behavior{Name: "ucitest"}
	for _, part := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "cp":
			b.CP = n
		case "mate":
			b.Mate, b.HasMate = n, true
		case "crash":
			b.CrashAt = n
		case "crashfile":
			b.CrashFile = v
		case "hang":
			b.Hang = true
		case "silent":
			b.Silent = true
		case "move":
			b.Move = v
		case "name":
			b.Name = v
		}
	}
	return b
}

// Picker chooses the move the fake engine answers, given the position
// command's FEN ("" for startpos), moves, and the searchmoves (if any). It
// returns "" when there is no legal move.
type Picker func(fen string, moves, searchmoves []string) string

// RunIfRequested turns the process into the fake engine when EnvVar is set
// and exits when the engine quits; otherwise it returns at once. pick may
// be nil.
func RunIfRequested(pick Picker) {
	v, ok := os.LookupEnv(EnvVar)
	if !ok {
		return
	}
	Serve(os.Stdin, os.Stdout, Parse(v), pick)
	os.Exit(0)
}

// Serve runs the fake engine on the given streams until "quit" or EOF.
func Serve(in io.Reader, out io.Writer, b Behavior, pick Picker) {
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var fen string
	var moves []string
	gos := 0
	if b.CrashFile != "" {
		if data, err := os.ReadFile(b.CrashFile); err == nil {
			gos, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
	}
	pending := "" // the answer of a hanging search
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if b.Silent {
				continue
			}
			say("id name %s", b.Name)
			say("id author threefold tests")
			say("option name Hash type spin default 16 min 1 max 1024")
			say("option name Threads type spin default 1 min 1 max 8")
			say("option name MultiPV type spin default 1 min 1 max 500")
			say("option name UCI_Chess960 type check default false")
			say("uciok")
		case "isready":
			say("readyok")
		case "position":
			fen, moves = "", nil
			rest := f[1:]
			if len(rest) > 0 && rest[0] == "fen" {
				i := 1
				for i < len(rest) && rest[i] != "moves" {
					i++
				}
				fen = strings.Join(rest[1:i], " ")
				rest = rest[i:]
			} else if len(rest) > 0 {
				rest = rest[1:]
			}
			if len(rest) > 0 && rest[0] == "moves" {
				moves = append([]string(nil), rest[1:]...)
			}
		case "go":
			gos++
			if b.CrashFile != "" {
				_ = os.WriteFile(b.CrashFile, []byte(strconv.Itoa(gos)), 0o600)
			}
			if b.CrashAt > 0 && gos >= b.CrashAt {
				os.Exit(3)
			}
			var sm []string
			for i, t := range f {
				if t == "searchmoves" {
					sm = f[i+1:]
				}
			}
			mv := b.Move
			if mv == "" && pick != nil {
				mv = pick(fen, moves, sm)
			} else if mv == "" && len(sm) > 0 {
				mv = sm[0]
			} else if mv == "" {
				mv = "e2e4"
			}
			if mv == "" {
				mv = "(none)"
			}
			score := fmt.Sprintf("cp %d", b.CP)
			if b.HasMate {
				score = fmt.Sprintf("mate %d", b.Mate)
			}
			answer := fmt.Sprintf("info depth 1 seldepth 1 multipv 1 score %s nodes 20 nps 1000 time 1 pv %s\nbestmove %s", score, mv, mv)
			if mv == "(none)" {
				answer = "info depth 0 score mate 0\nbestmove (none)"
			}
			if b.Hang {
				pending = answer
				continue
			}
			say("%s", answer)
		case "stop":
			if pending != "" {
				say("%s", pending)
				pending = ""
			}
		case "quit":
			return
		}
	}
}

// Script writes an executable wrapper in dir that runs the current test
// binary as the fake engine with the given behaviour (EnvVar syntax) and
// extra environment ("K=V"), and returns its path: a UCI engine "binary"
// for Config.Path. The test binary's TestMain must call RunIfRequested.
func Script(dir, behavior string, env ...string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for _, kv := range append([]string{EnvVar + "=" + behavior}, env...) {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "%s='%s' ", k, strings.ReplaceAll(v, "'", ""))
	}
	fmt.Fprintf(&b, "exec '%s' -test.run='^$'\n", exe)
	path := dir + "/engine.sh"
	if err := os.WriteFile(path, []byte(b.String()), 0o755); err != nil {
		return "", err
	}
	return path, nil
}
