package rules

import "fmt"

// Chess960Start returns start position number n of Chess960 in the
// standard numbering (0 to 959; 518 is the standard start), with all four
// castling rights, as a Chess960 position. The number is read as Reinhard
// Scharnagl defined it: the light-squared bishop (n mod 4), the
// dark-squared bishop, the queen on one of six free squares, the two
// knights on one of ten pairs of the five left, and rook, king, rook on
// the last three, in that order from the a-file.
func Chess960Start(n int) (Position, error) {
	if n < 0 || n > 959 {
		return Position{}, fmt.Errorf("rules: Chess960 start position %d: want 0 to 959", n)
	}
	var rank [8]byte
	rank[2*(n%4)+1] = 'b'
	n /= 4
	rank[2*(n%4)] = 'b'
	n /= 4
	placeNth(&rank, n%6, 'q')
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	placeNth(&rank, knights[1], 'n') // the second first, so that the first's index still counts the same free squares
	placeNth(&rank, knights[0], 'n')
	placeNth(&rank, 0, 'r')
	placeNth(&rank, 0, 'k')
	placeNth(&rank, 0, 'r')
	black := string(rank[:])
	white := make([]byte, 8)
	for i, c := range rank {
		white[i] = c - ('a' - 'A')
	}
	return mustParseChess960(black + "/pppppppp/8/8/8/8/PPPPPPPP/" + string(white) + " w KQkq - 0 1"), nil
}

// placeNth puts piece on the i-th (0-based) empty square of rank.
func placeNth(rank *[8]byte, i int, piece byte) {
	for f := range rank {
		if rank[f] != 0 {
			continue
		}
		if i == 0 {
			rank[f] = piece
			return
		}
		i--
	}
}

func mustParseChess960(fen string) Position {
	p, _, err := ParseFENVariant(fen, Chess960)
	if err != nil {
		panic(err)
	}
	return p
}
