// Package rules is the law of chess as threefold needs it, and nothing else.
//
// It holds a compact bitboard Position with legal move generation, FEN,
// UCI and SAN, for standard chess and Chess960 (castling rights held per
// rook, X-FEN and Shredder-FEN, the 960 start positions by number); the Key
// that is the identity of a position in the sense of FIDE 9.2.3 (placement,
// side to move, castling rights still held, and the en passant file only
// when an en passant capture is legal); Compare, which says whether two
// positions are the same and every reason why not, in those terms; and
// Game, a per-game tracker that answers after every ply how often the
// current position has occurred, at which plies, and which claims the side
// to move has (9.2.1, 9.2.2, 9.3) and whether the game is over by rule
// (9.6.1, 9.6.2, mate, stalemate). It is deterministic, does no I/O and
// imports only the standard library: every other package builds on it.
package rules
