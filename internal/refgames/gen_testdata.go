//go:build ignore

// gen_testdata writes testdata/games.pgn and testdata/games.annotations.jsonl:
// a few hundred games of the shared reference data (THREEFOLD_CORPUS, the
// folder holding pgn/repetitions.pgn and pgn/corpus.pgn.gz) with their
// reference annotations, chosen to cover every trap of the rule. Each game's
// text is copied byte for byte; its annotation line is the reference line
// with "id" renumbered to the game's index in games.pgn and "from" naming the
// file and 0-based index it came from.
//
//	THREEFOLD_CORPUS=/path/to/shared/data go run gen_testdata.go
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// excludedSources are left out for their licence: TCEC's PGN files are
// CC BY-SA 3.0 (share-alike), and the chess.com/Lichess Carlsen collection
// states none.
var excludedSources = []string{"tcec-via-tcecgames", "chesscom-lichess-carlsen-via-allancao"}

type annotation struct {
	MaxOccurrences int     `json:"max_occurrences"`
	FivefoldPly    *int    `json:"fivefold_ply"`
	ClaimablePlies []int   `json:"claimable_plies"`
	StartFEN       *string `json:"start_fen"`
	NaiveDiverges  bool    `json:"naive_diverges"`
	Skipped        any     `json:"skipped"`
	EP             struct {
		PseudoOnlyPlies int `json:"pseudo_only_plies"`
	} `json:"ep"`
}

type game struct {
	file  string
	index int
	text  string
	line  []byte // the reference annotation, as written
	ann   annotation
}

var sourceTag = regexp.MustCompile(`\[CorpusSource "([^"/]*)`)

func main() {
	dir := os.Getenv("THREEFOLD_CORPUS")
	if dir == "" {
		fail(fmt.Errorf("THREEFOLD_CORPUS is not set"))
	}
	reps := load(dir, "repetitions.pgn", "repetitions.oracle.jsonl")
	corpus := load(dir, "corpus.pgn.gz", "corpus.oracle.jsonl.gz")

	var picked []*game
	var why []string
	take := func(g *game, reason string) {
		picked = append(picked, g)
		why = append(why, reason)
	}
	// From the games that repeat: the first (the listener's proof test
	// reads its ply 52), every game where an e.p. square no capture can
	// use changes the answer, every fifth occurrence, every [FEN] start,
	// and every 25th of the rest.
	rest := 0
	for i, g := range reps {
		switch {
		case excluded(g):
		case i == 0:
			take(g, "first")
		case g.ann.NaiveDiverges:
			take(g, "ep-divergent")
		case g.ann.FivefoldPly != nil:
			take(g, "fivefold")
		case g.ann.StartFEN != nil:
			take(g, "fen-start")
		default:
			if rest%25 == 0 {
				take(g, "threefold")
			}
			rest++
		}
	}
	// From the corpus, only games without a third occurrence (the others
	// are in repetitions.pgn): e.p.-divergent ones, every position with a
	// pseudo-legal but illegal e.p. capture, ten [FEN] starts, a claim by
	// declared move without a third occurrence every 200 such games, and
	// a game with no claim at all every 4,000 games.
	fens, byMove, plain := 0, 0, 0
	for _, g := range corpus {
		if excluded(g) || g.ann.MaxOccurrences >= 3 {
			continue
		}
		switch {
		case g.ann.NaiveDiverges:
			take(g, "ep-divergent")
		case g.ann.EP.PseudoOnlyPlies > 0:
			take(g, "ep-pseudo-legal")
		case g.ann.StartFEN != nil:
			if fens < 10 {
				take(g, "fen-start")
			}
			fens++
		case len(g.ann.ClaimablePlies) > 0:
			if byMove%200 == 0 {
				take(g, "claim-by-move")
			}
			byMove++
		default:
			if plain%4000 == 0 {
				take(g, "no-claim")
			}
			plain++
		}
	}

	var pgn, ann bytes.Buffer
	count := map[string]int{}
	for i, g := range picked {
		if i > 0 {
			pgn.WriteString("\n\n")
		}
		pgn.WriteString(strings.TrimRight(g.text, "\n"))
		line, ok := bytes.CutPrefix(g.line, []byte(fmt.Sprintf(`{"id":%d,`, g.index)))
		if !ok {
			fail(fmt.Errorf("%s game %d: annotation does not start with its id", g.file, g.index))
		}
		fmt.Fprintf(&ann, `{"id":%d,"from":"%s#%d","selected":"%s",%s`+"\n", i, g.file, g.index, why[i], line)
		count[why[i]]++
	}
	pgn.WriteString("\n")
	write("testdata/games.pgn", pgn.Bytes())
	write("testdata/games.annotations.jsonl", ann.Bytes())
	fmt.Printf("%d games: %v\n", len(picked), count)
}

func excluded(g *game) bool {
	m := sourceTag.FindStringSubmatch(g.text)
	if m == nil {
		fail(fmt.Errorf("%s game %d: no CorpusSource tag", g.file, g.index))
	}
	for _, s := range excludedSources {
		if m[1] == s {
			return true
		}
	}
	return g.ann.Skipped != nil
}

// load splits a PGN file of the shared data into game texts (each game
// begins with [Event after a blank line, as the corpus is written) and
// pairs each with its annotation line.
func load(dir, pgnName, annName string) []*game {
	text := string(read(filepath.Join(dir, "pgn", pgnName)))
	texts := strings.Split(text, "\n\n[Event ")
	for i := 1; i < len(texts); i++ {
		texts[i] = "[Event " + texts[i]
	}
	var games []*game
	sc := bufio.NewScanner(bytes.NewReader(read(filepath.Join(dir, "pgn", annName))))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		g := &game{file: pgnName, index: len(games), line: bytes.Clone(sc.Bytes())}
		if err := json.Unmarshal(g.line, &g.ann); err != nil {
			fail(fmt.Errorf("%s line %d: %v", annName, len(games)+1, err))
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		fail(err)
	}
	if len(games) != len(texts) {
		fail(fmt.Errorf("%s: %d games, %s: %d annotations", pgnName, len(texts), annName, len(games)))
	}
	for i, g := range games {
		g.text = texts[i]
	}
	return games
}

func read(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		fail(fmt.Errorf("%s: %v", path, err))
	}
	if data, err = io.ReadAll(zr); err != nil {
		fail(fmt.Errorf("%s: %v", path, err))
	}
	return data
}

func write(path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen_testdata:", err)
	os.Exit(1)
}
