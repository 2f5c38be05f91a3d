"""The python-chess baseline of bench/scan.sh: parse every game of a PGN
file, replay its main line and count the occurrences of each position by
its repetition key (python-chess's transposition key), as scan does."""
import collections
import sys

import chess.pgn


def main(path):
    plies = threefold = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            seen = collections.Counter([board._transposition_key()])
            repeated = False
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
                key = board._transposition_key()
                seen[key] += 1
                repeated = repeated or seen[key] >= 3
            threefold += repeated
    print(f"{plies} plies, {threefold} games with a threefold")


if __name__ == "__main__":
    main(sys.argv[1])
