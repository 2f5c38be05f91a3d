package book_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/threefold-chess/threefold/bot/book"
	"github.com/threefold-chess/threefold/rules"
)

var update = flag.Bool("update", false, "write testdata/tiny.bin again")

// The keys the Polyglot format description gives for these games: every
// book is built with them.
func TestKey(t *testing.T) {
	tests := []struct {
		name  string
		moves string
		key   uint64
	}{
		{"start", "", 0x463b96181691fc9c},
		{"e4, no pawn beside it", "e2e4", 0x823c9b50fd114196},
		{"e4 d5", "e2e4 d7d5", 0x0756b94461c50fb0},
		{"e4 d5 e5", "e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"f5 beside e5: en passant file", "e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"Ke2: White's castling rights gone", "e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"Kf7: no castling right", "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"c4 beside b4", "a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"bxc3 e.p., Ra3: one rook's right gone", "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := book.Key(play(t, rules.StartFEN, tc.moves)); got != tc.key {
				t.Errorf("key %016x, want %016x", got, tc.key)
			}
		})
	}
}

func play(t *testing.T, fen, moves string) *rules.Game {
	t.Helper()
	pos, err := rules.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(pos)
	for _, m := range strings.Fields(moves) {
		if _, err := g.PlayUCI(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return g
}

// bookLine is an entry of a test book: after the moves from fen, move
// (UCI, castling as e1h1) with a weight.
type bookLine struct {
	fen, after, move string
	weight           uint16
}

// tiny is the book of testdata/tiny.bin.
var tiny = []bookLine{
	{after: "", move: "e2e4", weight: 30},
	{after: "", move: "d2d4", weight: 10},
	{after: "", move: "g2g4", weight: 0},  // known and bad: never played
	{after: "", move: "e2e5", weight: 50}, // not legal: left out
	{after: "e2e4", move: "e7e5", weight: 5},
	{after: "e2e4", move: "c7c5", weight: 5},
	{after: "e2e4 e7e5", move: "g1f3", weight: 7},
	{after: "e2e4 e7e5", move: "g1f3", weight: 3}, // listed twice: 10
	{after: "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", move: "e1h1", weight: 4},
	{after: "d2d4", move: "d7d5", weight: 1},
	{after: "g1f3 g8f6", move: "f3g1", weight: 100}, // repeats the start in a game that went back already
	{after: "g1f3 g8f6", move: "b1c3", weight: 1},
	{fen: "8/P7/8/8/8/8/8/k6K w - - 0 1", move: "a7a8q", weight: 9},
	{fen: "8/P7/8/8/8/8/8/k6K w - - 0 1", move: "a7a8n", weight: 1},
}

// writeBook writes lines as a Polyglot book, sorted by key.
func writeBook(t *testing.T, path string, lines []bookLine) {
	t.Helper()
	type raw struct {
		key          uint64
		move, weight uint16
	}
	var entries []raw
	for _, l := range lines {
		fen := l.fen
		if fen == "" {
			fen = rules.StartFEN
		}
		entries = append(entries, raw{book.Key(play(t, fen, l.after)), encodeMove(t, l.move), l.weight})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
	var b bytes.Buffer
	for _, e := range entries {
		var buf [16]byte
		binary.BigEndian.PutUint64(buf[0:], e.key)
		binary.BigEndian.PutUint16(buf[8:], e.move)
		binary.BigEndian.PutUint16(buf[10:], e.weight)
		b.Write(buf[:])
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// encodeMove packs a UCI move as Polyglot does.
func encodeMove(t *testing.T, uci string) uint16 {
	t.Helper()
	from, err1 := rules.ParseSquare(uci[0:2])
	to, err2 := rules.ParseSquare(uci[2:4])
	if err1 != nil || err2 != nil {
		t.Fatalf("move %q", uci)
	}
	m := uint16(to) | uint16(from)<<6
	if len(uci) == 5 {
		m |= uint16(strings.IndexByte("nbrq", uci[4])+1) << 12
	}
	return m
}

// testdata/tiny.bin is what writeBook makes of tiny (go test -update
// writes it again).
func TestTinyBookIsUpToDate(t *testing.T) {
	want := filepath.Join("testdata", "tiny.bin")
	if *update {
		writeBook(t, want, tiny)
	}
	got := filepath.Join(t.TempDir(), "tiny.bin")
	writeBook(t, got, tiny)
	a, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(got)
	if !bytes.Equal(a, b) {
		t.Fatalf("%s is not what the test helper writes: run go test -update", want)
	}
}

func TestMoves(t *testing.T) {
	b, err := book.Open(filepath.Join("testdata", "tiny.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tests := []struct {
		name, fen, moves string
		want             string // "move:weight ..." by falling weight
	}{
		{"start: the illegal entry left out", "", "", "e2e4:30 d2d4:10 g2g4:0"},
		{"Black's reply", "", "e2e4", "e7e5:5 c7c5:5"},
		{"a move listed twice is summed", "", "e2e4 e7e5", "g1f3:10"},
		{"castling as the king takes its rook", "", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1g1:4"},
		{"promotions", "8/P7/8/8/8/8/8/k6K w - - 0 1", "", "a7a8q:9 a7a8n:1"},
		{"a position not in the book", "", "e2e4 e7e5 g1f3", ""},
		{"another line", "", "d2d4", "d7d5:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fen := tc.fen
			if fen == "" {
				fen = rules.StartFEN
			}
			cands, err := b.Moves(play(t, fen, tc.moves))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cands {
				got = append(got, c.Move.UCI()+":"+itoa(c.Weight))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("moves %q, want %q", g, tc.want)
			}
		})
	}
	cands, _ := b.Moves(play(t, rules.StartFEN, "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"))
	if len(cands) != 1 || !cands[0].Move.IsCastling() {
		t.Errorf("e1h1 is not read as castling: %v", cands)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// Weighted: drawn in proportion to the weights (30:10 in 4000 draws of a
// seeded generator), never a move of weight 0; best: the heaviest.
func TestChoose(t *testing.T) {
	b, err := book.Open(filepath.Join("testdata", "tiny.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cands, err := b.Moves(play(t, rules.StartFEN, ""))
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	n := map[string]int{}
	for range 4000 {
		c, ok := book.Choose(cands, book.ChooseWeighted, rnd)
		if !ok {
			t.Fatal("no move chosen")
		}
		n[c.Move.UCI()]++
	}
	if n["g2g4"] != 0 || len(n) != 2 || n["e2e4"] < 2800 || n["e2e4"] > 3200 {
		t.Errorf("weighted choices %v, want about 3000 e2e4, 1000 d2d4, no g2g4", n)
	}
	if c, ok := book.Choose(cands, book.ChooseBest, rnd); !ok || c.Move.UCI() != "e2e4" {
		t.Errorf("best: %v %v, want e2e4", c.Move, ok)
	}
	if _, ok := book.Choose([]book.Candidate{{Move: cands[2].Move, Weight: 0}}, book.ChooseWeighted, rnd); ok {
		t.Error("a move of weight 0 was chosen")
	}
	if _, ok := book.Choose(nil, book.ChooseBest, rnd); ok {
		t.Error("a move was chosen from none")
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.bin")
	if err := os.WriteFile(odd, make([]byte, 17), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.bin")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"not a whole number of entries": odd, "empty": empty, "missing": filepath.Join(dir, "none.bin")} {
		t.Run(name, func(t *testing.T) {
			if b, err := book.Open(path); err == nil {
				b.Close()
				t.Errorf("%s opened", path)
			}
		})
	}
}
