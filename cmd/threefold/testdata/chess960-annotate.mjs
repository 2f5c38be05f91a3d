#!/usr/bin/env node
// Reference annotations for chess960.pgn, computed with chessops 0.15.1
// (the rules library behind Lichess, an implementation independent of
// threefold's rules package).
//
// Usage:
//   npm install --prefix /tmp/chessops chessops@0.15.1
//   CHESSOPS=/tmp/chessops/node_modules/chessops node chess960-annotate.mjs chess960.pgn > chess960.oracle.jsonl
//
// The [Variant] tag decides the rules as threefold reads them: Chess960
// (and its other names) as Chess960; no tag or a standard name as standard
// chess, except an untagged FEN whose castling field names an inner file;
// anything else is not annotated ("error"). chessops plays every castling
// as Chess960 castling, so for standard chess this script keeps only the
// rights standard chess can have (king on e1/e8, rook in its corner) and
// leaves the rest void. The movetext is read by this script (the generator
// writes plain SAN with move numbers, no comments); chessops parses every
// SAN move and is the referee for the identity of positions (placement,
// side to move, castling rights by rook, en passant square only when a
// capture there is legal), the claims and the final FEN.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const chessops = await import(pathToFileURL(path.join(process.env.CHESSOPS, 'dist/esm/index.js')).href);
const { Chess, SquareSet } = chessops;
const { parseFen, makeFen, makeBoardFen, makeCastlingFen, INITIAL_FEN } = chessops.fen;
const { parseSan } = chessops.san;

const CHESS960 = new Set(['chess960', 'chess 960', 'fischerandom', 'fischerrandom', 'fischer random', 'freestyle']);
const STANDARD = new Set(['standard', 'from position', 'normal']);

function* games(text) {
  for (const block of text.trim().split(/\n\n(?=\[)/)) {
    const tags = {};
    for (const m of block.matchAll(/^\[(\w+) "([^"]*)"\]$/gm)) tags[m[1]] = m[2];
    const movetext = block.split('\n').filter(l => !l.startsWith('[')).join('\n');
    const tokens = movetext.split(/\s+/).filter(t => t && !/^\d+\.+$/.test(t) && !['*', '1-0', '0-1', '1/2-1/2'].includes(t));
    yield [tags, tokens];
  }
}

// standardRights keeps the castling rights standard chess can have: the
// king on its square and the rook in its corner.
function standardRights(setup) {
  let rights = SquareSet.empty();
  for (const [color, king, corners] of [['white', 4, [0, 7]], ['black', 60, [56, 63]]]) {
    if (setup.board.kingOf(color) !== king) continue;
    for (const sq of corners) if (setup.castlingRights.has(sq)) rights = rights.with(sq);
  }
  return rights;
}

// key is the identity of a position under article 9.2.
function key(pos) {
  const s = pos.toSetup();
  return [makeBoardFen(s.board), s.turn, makeCastlingFen(s.board, s.castlingRights), s.epSquare === undefined ? '-' : s.epSquare].join(' ');
}

function canClaim(pos, counts) {
  if (counts.get(key(pos)) >= 3) return true;
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const promos = pos.board.pawn.has(from) && (to >> 3 === 0 || to >> 3 === 7) ? ['queen', 'rook', 'bishop', 'knight'] : [undefined];
      for (const promotion of promos) {
        const next = pos.clone();
        next.play({ from, to, promotion });
        if ((counts.get(key(next)) || 0) >= 2) return true;
      }
    }
  }
  return false;
}

function annotate(index, tags, tokens) {
  const variant = tags.Variant;
  const fen = tags.FEN;
  const out = { id: index, start_fen: fen === undefined ? null : fen };
  const name = (variant || '').trim().toLowerCase();
  let chess960;
  if (variant === undefined || STANDARD.has(name)) {
    chess960 = false;
    out.variant = 'standard';
    if (variant === undefined && fen && /[B-Gb-g]/.test(fen.split(' ')[2])) {
      chess960 = true;
      out.variant = 'chess960';
    }
  } else if (CHESS960.has(name)) {
    chess960 = true;
    out.variant = 'chess960';
  } else {
    return Object.assign(out, { variant, plies: 0, error: `variant "${variant}" is not supported` });
  }
  const setup = parseFen(fen || INITIAL_FEN).unwrap();
  if (!chess960) setup.castlingRights = standardRights(setup);
  const pos = Chess.fromSetup(setup).unwrap();
  const counts = new Map([[key(pos), 1]]);
  const threefold = [];
  const claimable = [];
  let fivefold = null;
  if (canClaim(pos, counts)) claimable.push(0);
  tokens.forEach((san, i) => {
    const ply = i + 1;
    const move = parseSan(pos, san);
    if (!move) throw new Error(`game ${index}: ply ${ply}: ${san} is not legal in ${makeFen(pos.toSetup())}`);
    pos.play(move);
    const k = key(pos);
    const n = (counts.get(k) || 0) + 1;
    counts.set(k, n);
    if (n >= 3) threefold.push(ply);
    if (n === 5 && fivefold === null) fivefold = ply;
    if (canClaim(pos, counts)) claimable.push(ply);
  });
  return Object.assign(out, {
    plies: tokens.length,
    max_occurrences: Math.max(...counts.values()),
    threefold_plies: threefold,
    fivefold_ply: fivefold,
    claimable_plies: claimable,
    final_fen: makeFen(pos.toSetup()),
  });
}

const text = fs.readFileSync(process.argv[2], 'utf8');
let i = 0;
for (const [tags, tokens] of games(text)) {
  process.stdout.write(JSON.stringify(annotate(i++, tags, tokens)) + '\n');
}
