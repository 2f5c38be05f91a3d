package pgn_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/threefold-chess/threefold/pgn"
)

func ExampleReader() {
	const text = `[Event "Casual"]
[White "A"]
[Black "B"]

1. e4 e5 2. Nf3 {the main line} (2. f4 exf4) Nc6 3. Bb5 a6!? $1 1/2-1/2

[Event "Broken"]

1. d4 { this comment is never closed
2. c4

[Event "Next"]

1. c4 *
`
	r := pgn.NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err) // only an I/O error of the source ends the reading
		}
		event, _ := g.Tag("Event")
		fmt.Printf("game %d at line %d (%s): %v", g.Index, g.Line, event, g.Moves)
		if g.Result != "" {
			fmt.Printf(" %s", g.Result)
		}
		if g.Err != nil {
			fmt.Printf(" error: %v", g.Err)
		}
		fmt.Println()
	}
	// Output:
	// game 0 at line 1 (Casual): [e4 e5 Nf3 Nc6 Bb5 a6] 1/2-1/2
	// game 1 at line 7 (Broken): [d4] error: line 12: unterminated comment opened at line 9
	// game 2 at line 12 (Next): [c4] *
}
