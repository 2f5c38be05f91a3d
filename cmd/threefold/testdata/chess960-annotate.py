#!/usr/bin/env python3
"""Reference annotations for chess960.pgn, computed with python-chess 1.11.2.

Usage: PYTHONPATH=/path/to/python-chess-1.11.2 python3 annotate.py chess960.pgn > chess960.oracle.jsonl

The [Variant] tag decides the rules as threefold reads it: Chess960 (and its
other names) with chess960=True, no tag or a standard name with
chess960=False, anything else is not annotated ("error"). The movetext is
read by this script (the generator writes plain SAN with move numbers, no
comments); python-chess parses every SAN move and is the referee for the
identity of positions (its transposition key), the claims
(can_claim_threefold_repetition) and the final FEN.
"""
import collections
import json
import re
import sys

import chess

assert chess.__version__ == "1.11.2", chess.__version__

CHESS960 = {"chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random", "freestyle"}
STANDARD = {"standard", "from position", "normal"}


def games(text):
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, re.M))
        movetext = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        tokens = [t for t in movetext.split() if not re.match(r"^\d+\.+$", t) and t not in ("*", "1-0", "0-1", "1/2-1/2")]
        yield tags, tokens


def annotate(index, tags, tokens):
    variant = tags.get("Variant")
    fen = tags.get("FEN")
    out = {"id": index, "start_fen": fen}
    name = (variant or "").strip().lower()
    if variant is None or name in STANDARD:
        chess960, out["variant"] = False, "standard"
        if variant is None and fen and re.search(r"[B-Gb-g]", fen.split()[2]):
            chess960, out["variant"] = True, "chess960"
    elif name in CHESS960:
        chess960, out["variant"] = True, "chess960"
    else:
        out.update(variant=variant, plies=0, error='variant "%s" is not supported' % variant)
        return out
    board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
    counts = collections.Counter([board._transposition_key()])
    threefold, claimable, fivefold = [], [], None
    if board.can_claim_threefold_repetition():
        claimable.append(0)
    for ply, san in enumerate(tokens, 1):
        board.push_san(san)
        key = board._transposition_key()
        counts[key] += 1
        if counts[key] >= 3:
            threefold.append(ply)
        if counts[key] == 5 and fivefold is None:
            fivefold = ply
        if board.can_claim_threefold_repetition():
            claimable.append(ply)
    out.update(plies=len(tokens), max_occurrences=max(counts.values()), threefold_plies=threefold,
               fivefold_ply=fivefold, claimable_plies=claimable, final_fen=board.fen())
    return out


def main():
    text = open(sys.argv[1]).read()
    for i, (tags, tokens) in enumerate(games(text)):
        print(json.dumps(annotate(i, tags, tokens), separators=(",", ":")))


if __name__ == "__main__":
    main()
