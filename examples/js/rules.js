'use strict';
/* rules.js: the rules of ISAAC, FOUNDATIONS and HARI (SPEC.md sections 1-5), written from SPEC.md alone.
 *
 * A position holds exactly the fields of a position string (SPEC 7); everything else is derived.
 * legalMoves() lists every legal move (HARI slides included), countMoves() counts them without
 * building them (for perft), makeMove() checks a move and returns the next position, or throws an
 * Illegal error naming the rule it breaks. Notation (reading and writing) is in notation.js.
 */

const DARK = 0;
const LIGHT = 1;
const COLOUR = ['Dark', 'Light'];
const GAMES = ['isaac', 'foundations', 'hari'];
const SET_COUNT = [0, 0, 0, 5, 4, 3, 2, 1]; // pieces of each length in one set
const VALUE = [0, 0, 0, 1, 2, 3, 4, 6]; // the value of each length
const LENGTHS = [3, 4, 5, 6, 7];
const MAX_LEVEL = 8; // FOUNDATIONS: a set cannot build higher
const OFF = -1; // HARI: a slide's destination off the board

class Illegal extends Error {}

// ---- cells and segments: a cell is rank * 10 + file (a0 = 0, j9 = 99) -------------------------

const isVertical = (lo, hi) => lo % 10 === hi % 10 && lo !== hi;
const stepOf = (lo, hi) => (isVertical(lo, hi) ? 10 : 1);
const lengthOf = (lo, hi) => (hi - lo) / stepOf(lo, hi) + 1;
const cellName = (c) => 'abcdefghij'[c % 10] + Math.floor(c / 10);
const segName = (lo, hi) => cellName(lo) + cellName(hi);

function cellsOf(lo, hi) {
  const out = [];
  for (let c = lo; c <= hi; c += stepOf(lo, hi)) out.push(c);
  return out;
}

/** Every segment of one length: along rows, then along columns. */
function segments(len) {
  const out = [];
  for (let r = 0; r < 10; r++) for (let f = 0; f + len <= 10; f++) out.push([r * 10 + f, r * 10 + f + len - 1]);
  for (let r = 0; r + len <= 10; r++) for (let f = 0; f < 10; f++) out.push([r * 10 + f, (r + len - 1) * 10 + f]);
  return out;
}
const SEGMENTS = LENGTHS.reduce((table, len) => { table[len] = segments(len); return table; }, []);

/** RUNS[len][mask]: how many runs of `len` set bits a 10-bit row (or column) mask holds. */
const RUNS = LENGTHS.reduce((table, len) => {
  table[len] = new Uint8Array(1024);
  for (let mask = 0; mask < 1024; mask++) {
    let window = mask;
    for (let k = 1; k < len; k++) window &= mask >> k;
    for (; window; window &= window - 1) table[len][mask]++;
  }
  return table;
}, []);

// ---- positions -------------------------------------------------------------------------------

function startPosition(game) {
  return {
    game, pieces: [], hand: [SET_COUNT.slice(), SET_COUNT.slice()], side: DARK, passes: [],
    phase: 'place', scores: [0, 0],
  };
}

function copyPosition(p) {
  return {
    ...p, pieces: p.pieces.map((q) => ({ ...q })), hand: [p.hand[0].slice(), p.hand[1].slice()],
    passes: p.passes.slice(), scores: p.scores.slice(),
  };
}

/** at[level][cell]: the index of the piece there, or -1 (level 1 is the board). */
function grid(p) {
  const at = [];
  for (let level = 0; level <= MAX_LEVEL + 1; level++) at.push(new Int8Array(100).fill(-1));
  p.pieces.forEach((q, i) => { for (const c of cellsOf(q.lo, q.hi)) at[q.level][c] = i; });
  return at;
}

function isOver(p) {
  if (p.game === 'isaac' && Math.max(...p.scores) >= 100) return true; // score-limit
  return p.passes.length === 2 && (p.game !== 'isaac' || p.phase === 'score'); // both-passed
}

const onBoard = (p, colour, len) => p.pieces.filter((q) => q.owner === colour && lengthOf(q.lo, q.hi) === len).length;

/** ISAAC: pieces neither in hand nor on the board were removed; the next removal is at least as long. */
function longestRemoved(p, colour) {
  for (let len = 7; len >= 3; len--) if (SET_COUNT[len] - p.hand[colour][len] - onBoard(p, colour, len) > 0) return len;
  return 0;
}

/** HARI: plays never get shorter, and every piece not in hand was played. */
function longestPlayed(p, colour) {
  for (let len = 7; len >= 3; len--) if (p.hand[colour][len] < SET_COUNT[len]) return len;
  return 0;
}

/** FOUNDATIONS: a player's current level is the highest holding one of its pieces (1 if none). */
const currentLevel = (p, colour) => Math.max(1, ...p.pieces.filter((q) => q.owner === colour).map((q) => q.level));
const longestOnLevel = (p, colour, level) => Math.max(0, ...p.pieces
  .filter((q) => q.owner === colour && q.level === level).map((q) => lengthOf(q.lo, q.hi)));

/** ISAAC: Dark's counter for score s is on cell s, Light's on 99 - s; off the board from 100. */
const counterCell = (colour, score) => (score >= 100 ? -1 : colour === DARK ? score : 99 - score);

// ---- placing a piece -------------------------------------------------------------------------

/** Why `colour` may not cover lo..hi on `level` (null if it may). The cells only: FOUNDATIONS
 * also forbids building under a higher piece, and above level 1 both ends rest on two different
 * own pieces of the level below (the middle may bridge anything). */
function placementProblem(p, at, colour, lo, hi, level) {
  for (const c of cellsOf(lo, hi)) {
    const taker = at[level][c];
    if (taker >= 0) {
      const q = p.pieces[taker];
      return `cell ${cellName(c)} is taken by ${COLOUR[q.owner]}'s piece ${segName(q.lo, q.hi)}`;
    }
    for (let up = level + 1; up <= MAX_LEVEL; up++) {
      if (at[up][c] >= 0) return `cell ${cellName(c)} lies under a piece on level ${up}: nothing is built underneath`;
    }
  }
  if (level >= 2) {
    const a = at[level - 1][lo];
    const b = at[level - 1][hi];
    if (a < 0 || b < 0 || p.pieces[a].owner !== colour || p.pieces[b].owner !== colour) {
      return `both ends must rest on your own pieces on level ${level - 1}`;
    }
    if (a === b) return 'both ends rest on one piece; they need two different pieces';
  }
  return null;
}

/** Every placement of the mover's pieces from length `shortest` up on `level` (with `first`, only the
 * first one found, or none). */
function placements(p, at, level, shortest, first = false) {
  const out = [];
  for (const len of LENGTHS) {
    if (len < shortest || p.hand[p.side][len] === 0) continue;
    for (const [lo, hi] of SEGMENTS[len]) {
      if (placementProblem(p, at, p.side, lo, hi, level)) continue;
      out.push({ kind: 'place', lo, hi, level, slides: [] });
      if (first) return out;
    }
  }
  return out;
}

/** FOUNDATIONS compulsion: [level, shortest length] where the mover must place (SPEC 4). */
function foundationsTarget(p, at) {
  const level = currentLevel(p, p.side);
  const shortest = longestOnLevel(p, p.side, level);
  if (level === MAX_LEVEL || placements(p, at, level, shortest, true).length > 0) return [level, shortest];
  return [level + 1, 0];
}

// ---- ISAAC's scoring phase -------------------------------------------------------------------

/** Points for removing piece i: N x V x M (SPEC 3). */
function earned(p, i) {
  const r = p.pieces[i];
  const vertical = isVertical(r.lo, r.hi);
  const line = vertical ? r.lo % 10 : Math.floor(r.lo / 10);
  const across = (c) => (vertical ? c % 10 : Math.floor(c / 10));
  const others = p.pieces.filter((q, j) => j !== i && across(q.lo) <= line && line <= across(q.hi)).length;
  const counters = [DARK, LIGHT].map((c) => counterCell(c, p.scores[c])).filter((c) => c >= 0 && across(c) === line);
  return others * VALUE[lengthOf(r.lo, r.hi)] * (1 << counters.length);
}

/** The new scores the mover may choose after earning e: s..min(99, s + e) except the opponent's
 * counter cell, and s + e itself when it reaches 100 (which ends the game). */
function scoreChoices(p, e) {
  const s = p.scores[p.side];
  const theirs = counterCell(1 - p.side, p.scores[1 - p.side]);
  const out = [];
  for (let t = s; t <= Math.min(99, s + e); t++) if (counterCell(p.side, t) !== theirs) out.push(t);
  if (s + e >= 100) out.push(s + e);
  return out;
}

function removalProblem(p, i) {
  const r = p.pieces[i];
  const seg = segName(r.lo, r.hi);
  if (r.owner !== p.side) return `${seg} is ${COLOUR[r.owner]}'s piece, not yours`;
  const len = lengthOf(r.lo, r.hi);
  const shortest = longestRemoved(p, p.side);
  if (len < shortest) return `${seg} has length ${len}, shorter than a piece you removed before (${shortest})`;
  for (const colour of [DARK, LIGHT]) {
    const c = counterCell(colour, p.scores[colour]);
    if (cellsOf(r.lo, r.hi).includes(c)) return `${seg} lies under ${COLOUR[colour]}'s counter on ${cellName(c)}`;
  }
  return null;
}

function removals(p) {
  const out = [];
  p.pieces.forEach((q, i) => {
    if (removalProblem(p, i)) return;
    for (const score of scoreChoices(p, earned(p, i))) out.push({ kind: 'remove', lo: q.lo, hi: q.hi, score, slides: [] });
  });
  return out;
}

// ---- HARI: slides ------------------------------------------------------------------------------

/** Occupied cells of the board as 10-bit masks per rank (rows) and per file (cols). */
function occupancy(p) {
  const occ = { rows: new Uint16Array(10), cols: new Uint16Array(10) };
  for (const q of p.pieces) for (const c of cellsOf(q.lo, q.hi)) fill(occ, c, true);
  return occ;
}

function fill(occ, c, taken) {
  const r = Math.floor(c / 10);
  const f = c % 10;
  if (taken) { occ.rows[r] |= 1 << f; occ.cols[f] |= 1 << r; } else { occ.rows[r] &= ~(1 << f); occ.cols[f] &= ~(1 << r); }
}

const isTaken = (occ, c) => (occ.rows[Math.floor(c / 10)] >> (c % 10)) & 1;
const copyOcc = (occ) => ({ rows: occ.rows.slice(), cols: occ.cols.slice() });

/** Where a piece on lo..hi may slide on this board: each new lo cell, and OFF if a way to an edge is clear. */
function slideEnds(occ, lo, hi) {
  const step = stepOf(lo, hi);
  const along = (c) => (step === 1 ? c % 10 : Math.floor(c / 10));
  const span = hi - lo;
  const out = [];
  let off = false;
  let c = lo;
  for (;;) { // toward the low edge
    if (along(c) === 0) { off = true; break; }
    c -= step;
    if (isTaken(occ, c)) break;
    out.push(c);
  }
  c = hi;
  for (;;) { // toward the high edge
    if (along(c) === 9) { off = true; break; }
    c += step;
    if (isTaken(occ, c)) break;
    out.push(c - span);
  }
  if (off) out.push(OFF);
  return out;
}

/** Why the slide of lo..hi to `to` (a segment [toLo, toHi] or OFF) is not possible now, or null. */
function slideProblem(occ, lo, hi, to) {
  const shown = `slide ${segName(lo, hi)}>${to === OFF ? 'off' : segName(to[0], to[1])}`;
  if (to === OFF) return slideEnds(occ, lo, hi).includes(OFF) ? null : `${shown} is blocked both ways`;
  const step = stepOf(lo, hi);
  const sameLine = stepOf(to[0], to[1]) === step && lengthOf(to[0], to[1]) === lengthOf(lo, hi)
    && (step === 1 ? Math.floor(to[0] / 10) === Math.floor(lo / 10) : to[0] % 10 === lo % 10);
  if (!sameLine || to[0] === lo) return `${shown}: a piece slides at least one cell along its own line`;
  const [first, last] = to[0] < lo ? [to[0], lo - step] : [hi + step, to[1]];
  for (let c = first; c <= last; c += step) if (isTaken(occ, c)) return `${shown} is blocked at ${cellName(c)}`;
  return null;
}

/** Apply a slide to an occupancy (the piece's cells leave, its new cells fill unless it went off). */
function slideOcc(occ, lo, hi, toLo) {
  for (const c of cellsOf(lo, hi)) fill(occ, c, false);
  if (toLo !== OFF) for (const c of cellsOf(toLo, toLo + hi - lo)) fill(occ, c, true);
}

/** Lengths the mover may play, ascending: in hand and not shorter than its last play. */
function playableLengths(p) {
  const shortest = longestPlayed(p, p.side);
  return LENGTHS.filter((len) => len >= shortest && p.hand[p.side][len] > 0);
}

/** Each distinct legal slide set of the mover once (the empty one first), with the board after it.
 * A set is identified by the pieces slid and where they went, whatever the order (SPEC 5), so the
 * walk over slide sequences drops a sequence that reaches a set already found; sets worth more
 * than the most valuable playable piece are pruned. `movers` are the mover's pieces in canonical
 * order (by lo, then hi); a set's `to[i]` is mover i's new lo cell, OFF, or undefined if unmoved. */
function slideSets(p) {
  const lengths = playableLengths(p);
  const budget = lengths.length ? VALUE[lengths[lengths.length - 1]] : 0;
  const movers = p.pieces.filter((q) => q.owner === p.side).sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  const first = { to: new Array(movers.length), value: 0, occ: occupancy(p) };
  const seen = new Set(['']);
  const sets = [first];
  for (let k = 0; k < sets.length; k++) { // breadth first: sets grow one slide at a time
    const set = sets[k];
    movers.forEach((m, i) => {
      const value = set.value + VALUE[lengthOf(m.lo, m.hi)];
      if (set.to[i] !== undefined || value > budget) return;
      for (const end of slideEnds(set.occ, m.lo, m.hi)) {
        const to = set.to.slice();
        to[i] = end;
        const key = to.join(','); // unmoved pieces are empty between the commas
        if (seen.has(key)) continue;
        seen.add(key);
        const occ = copyOcc(set.occ);
        slideOcc(occ, m.lo, m.hi, end);
        sets.push({ to, value, occ });
      }
    });
  }
  return { movers, sets, lengths };
}

/** The slides of a set in canonical order: of all orders legal one after another, the
 * lexicographically smallest by the movers' order (SPEC 6). */
function canonicalSlides(p, movers, to) {
  const slid = movers.map((_, i) => i).filter((i) => to[i] !== undefined);
  const asSlide = (i) => {
    const m = movers[i];
    return { lo: m.lo, hi: m.hi, to: to[i] === OFF ? OFF : [to[i], to[i] + m.hi - m.lo] };
  };
  const search = (occ, left) => {
    if (left.length === 0) return [];
    for (const i of left) {
      const s = asSlide(i);
      if (slideProblem(occ, s.lo, s.hi, s.to)) continue;
      const next = copyOcc(occ);
      slideOcc(next, s.lo, s.hi, to[i]);
      const rest = search(next, left.filter((j) => j !== i));
      if (rest) return [s, ...rest];
    }
    return null;
  };
  return search(occupancy(p), slid);
}

const placementCount = (occ, len) => {
  let n = 0;
  for (let k = 0; k < 10; k++) n += RUNS[len][~occ.rows[k] & 1023] + RUNS[len][~occ.cols[k] & 1023];
  return n;
};

function hariMoves(p, withSlides) {
  const { movers, sets, lengths } = withSlides ? slideSets(p)
    : { movers: [], sets: [{ to: [], value: 0, occ: occupancy(p) }], lengths: playableLengths(p) };
  if (lengths.length === 0) return [{ kind: 'pass', slides: [] }];
  const out = [];
  for (const set of sets) {
    const slides = canonicalSlides(p, movers, set.to);
    for (const len of lengths) {
      if (VALUE[len] < set.value) continue;
      out.push({ kind: 'discard', length: len, slides });
      for (const [lo, hi] of SEGMENTS[len]) {
        if (cellsOf(lo, hi).every((c) => !isTaken(set.occ, c))) out.push({ kind: 'place', lo, hi, level: 1, slides });
      }
    }
  }
  return out;
}

// ---- the legal moves -------------------------------------------------------------------------

/** Every legal move; with `withSlides` false, HARI's moves without slides only (a mid-game HARI
 * position can have a million moves, most of them with slides). */
function legalMoves(p, withSlides = true) {
  if (isOver(p)) return [];
  if (p.game === 'hari') return hariMoves(p, withSlides);
  const at = grid(p);
  let moves;
  if (p.game === 'isaac') moves = p.phase === 'place' ? placements(p, at, 1, 0) : removals(p);
  else moves = placements(p, at, ...foundationsTarget(p, at));
  return moves.length ? moves : [{ kind: 'pass', slides: [] }];
}

/** How many legal moves there are, without building HARI's (perft's last ply). */
function countMoves(p) {
  if (p.game !== 'hari' || isOver(p)) return legalMoves(p).length;
  const { sets, lengths } = slideSets(p);
  if (lengths.length === 0) return 1;
  let n = 0;
  for (const set of sets) for (const len of lengths) if (VALUE[len] >= set.value) n += 1 + placementCount(set.occ, len);
  return n;
}

function perft(p, depth) {
  if (depth === 0) return 1;
  if (depth === 1) return countMoves(p);
  let n = 0;
  for (const m of legalMoves(p)) n += perft(makeMove(p, m), depth - 1);
  return n;
}

// ---- playing a move ----------------------------------------------------------------------------

/** The turn passes on after every move, passes included; a player who has passed is skipped while
 * the other still moves. ISAAC: the second pass of the placement phase starts the scoring phase,
 * begun by the first passer (whom the turn passes to). */
function endTurn(q, mover, passed) {
  if (passed) q.passes.push(mover);
  q.side = q.passes.includes(1 - mover) && !passed ? mover : 1 - mover;
  if (q.game === 'isaac' && q.phase === 'place' && q.passes.length === 2) {
    q.phase = 'score';
    q.passes = [];
  }
}

function addPiece(q, colour, lo, hi, level) {
  q.pieces.push({ lo, hi, owner: colour, level });
  q.hand[colour][lengthOf(lo, hi)]--;
}

function needHand(p, len) {
  if (p.hand[p.side][len] === 0) throw new Illegal(`you have no piece of length ${len} in hand`);
}

function isaacMove(p, at, m, q) {
  if (p.phase === 'place') {
    if (m.kind !== 'place') throw new Illegal('pieces are removed in the scoring phase; this is the placement phase');
    needHand(p, lengthOf(m.lo, m.hi));
    const problem = placementProblem(p, at, p.side, m.lo, m.hi, 1);
    if (problem) throw new Illegal(problem);
    addPiece(q, p.side, m.lo, m.hi, 1);
    return;
  }
  if (m.kind !== 'remove') throw new Illegal('the placement phase is over: remove one of your pieces (x<segment>:<score>)');
  const i = p.pieces.findIndex((r) => r.lo === m.lo && r.hi === m.hi);
  if (i < 0) throw new Illegal(`no piece lies on ${segName(m.lo, m.hi)}`);
  const problem = removalProblem(p, i);
  if (problem) throw new Illegal(problem);
  const e = earned(p, i);
  if (!scoreChoices(p, e).includes(m.score)) {
    const s = p.scores[p.side];
    throw new Illegal(`score ${m.score} is not allowed: removing ${segName(m.lo, m.hi)} earns ${e} from ${s}, so `
      + `${s}..${Math.min(99, s + e)}${s + e >= 100 ? ` or ${s + e}` : ''}, never on your opponent's counter`);
  }
  q.pieces.splice(i, 1);
  q.scores[p.side] = m.score;
}

function foundationsMove(p, at, m, q) {
  const current = currentLevel(p, p.side);
  const len = lengthOf(m.lo, m.hi);
  const [level, shortest] = foundationsTarget(p, at);
  if (m.level !== level) {
    throw new Illegal(m.level < current ? `level ${m.level} is below your current level ${current}`
      : level === current ? `you must place on level ${current} while you can` : `you must place on level ${level} now`);
  }
  needHand(p, len);
  if (len < shortest) throw new Illegal(`length ${len} is shorter than your last piece on this level (${shortest})`);
  const problem = placementProblem(p, at, p.side, m.lo, m.hi, m.level);
  if (problem) throw new Illegal(problem);
  addPiece(q, p.side, m.lo, m.hi, m.level);
}

function hariMove(p, m, q) {
  const occ = occupancy(p);
  const slid = new Set();
  let value = 0;
  for (const s of m.slides) { // in the order given: each must be legal after the ones before
    const i = p.pieces.findIndex((r) => r.lo === s.lo && r.hi === s.hi);
    const shown = `slide ${segName(s.lo, s.hi)}>${s.to === OFF ? 'off' : segName(s.to[0], s.to[1])}`;
    if (i < 0) throw new Illegal(`${shown}: no piece lies on ${segName(s.lo, s.hi)}`);
    if (p.pieces[i].owner !== p.side) throw new Illegal(`${shown}: ${segName(s.lo, s.hi)} is ${COLOUR[p.pieces[i].owner]}'s piece, not yours`);
    if (slid.has(i)) throw new Illegal(`${shown}: a piece slides at most once a turn`);
    const problem = slideProblem(occ, s.lo, s.hi, s.to);
    if (problem) throw new Illegal(problem);
    slideOcc(occ, s.lo, s.hi, s.to === OFF ? OFF : s.to[0]);
    slid.add(i);
    value += VALUE[lengthOf(s.lo, s.hi)];
    Object.assign(q.pieces[i], s.to === OFF ? { level: 0 } : { lo: s.to[0], hi: s.to[1] });
  }
  const len = m.kind === 'discard' ? m.length : lengthOf(m.lo, m.hi);
  needHand(p, len);
  const shortest = longestPlayed(p, p.side);
  if (len < shortest) throw new Illegal(`length ${len} is shorter than a piece you played before (${shortest})`);
  if (VALUE[len] < value) throw new Illegal(`the slid pieces are worth ${value}, more than the played piece (${VALUE[len]})`);
  q.pieces = q.pieces.filter((r) => r.level > 0); // pieces slid off leave the game
  if (m.kind === 'discard') {
    q.hand[p.side][len]--;
    return;
  }
  const taken = cellsOf(m.lo, m.hi).find((c) => isTaken(occ, c));
  if (taken !== undefined) throw new Illegal(`cell ${cellName(taken)} is taken`);
  addPiece(q, p.side, m.lo, m.hi, 1);
}

const KINDS = { isaac: ['place', 'remove'], foundations: ['place'], hari: ['place', 'discard'] };

/** The position after move m, or an Illegal error naming the rule it breaks. */
function makeMove(p, m) {
  if (isOver(p)) throw new Illegal('the game is over');
  const q = copyPosition(p);
  if (m.kind === 'pass') {
    const canMove = p.game === 'hari' ? playableLengths(p).length > 0 : legalMoves(p)[0].kind !== 'pass';
    if (canMove) throw new Illegal('you may pass only when no other move is legal');
    endTurn(q, p.side, true);
    return q;
  }
  if (!KINDS[p.game].includes(m.kind) || (m.slides.length > 0 && p.game !== 'hari')) {
    throw new Illegal('this kind of move belongs to another game');
  }
  if (p.game === 'isaac') isaacMove(p, grid(p), m, q);
  else if (p.game === 'foundations') foundationsMove(p, grid(p), m, q);
  else hariMove(p, m, q);
  endTurn(q, p.side, false);
  return q;
}

// ---- results -----------------------------------------------------------------------------------

const valueInHand = (p, colour) => LENGTHS.reduce((v, len) => v + p.hand[colour][len] * VALUE[len], 0);
const valueOnBoard = (p, colour, level) => p.pieces
  .filter((q) => q.owner === colour && (level === 0 || q.level === level))
  .reduce((v, q) => v + VALUE[lengthOf(q.lo, q.hi)], 0);

/** The game's own measure, [Dark, Light] (SPEC 3-5): ISAAC score, FOUNDATIONS value in hand (lower
 * is better), HARI value on the board. */
function scores(p) {
  if (p.game === 'isaac') return p.scores.slice();
  if (p.game === 'foundations') return [valueInHand(p, DARK), valueInHand(p, LIGHT)];
  return [valueOnBoard(p, DARK, 0), valueOnBoard(p, LIGHT, 0)];
}

/** The result of a finished game: "1-0 (Dark has the higher score, 40-31)". */
function describeResult(p) {
  const [d, l] = scores(p);
  let winner = -1;
  let why = '';
  if (p.game === 'isaac') {
    if (d !== l) [winner, why] = [d > l ? DARK : LIGHT, 'has the higher score'];
    else { // the longer line of unplayed pieces (fewer pieces is longer), then Dark
      const cells = p.hand.map((h) => LENGTHS.reduce((n, len) => n + len * h[len], 0));
      const count = p.hand.map((h) => LENGTHS.reduce((n, len) => n + h[len], 0));
      winner = cells[0] !== cells[1] ? (cells[0] > cells[1] ? DARK : LIGHT) : count[1] < count[0] ? LIGHT : DARK;
      why = 'wins the tie on the longer line of unplayed pieces';
    }
  } else if (p.game === 'foundations') {
    if (d !== l) [winner, why] = [d < l ? DARK : LIGHT, 'has the lower value in hand'];
    for (let level = MAX_LEVEL; winner < 0 && level >= 1; level--) { // fewer points on the highest level
      const [a, b] = [valueOnBoard(p, DARK, level), valueOnBoard(p, LIGHT, level)];
      if (a !== b) [winner, why] = [a < b ? DARK : LIGHT, `has fewer points on level ${level} (${a}-${b})`];
    }
  } else if (d !== l) {
    [winner, why] = [d > l ? DARK : LIGHT, 'has the higher value on the board'];
  }
  if (winner < 0) return `1/2-1/2 (draw, ${d}-${l})`;
  return `${winner === DARK ? '1-0' : '0-1'} (${COLOUR[winner]} ${why}, ${d}-${l})`;
}

/** The checks of SPEC 7 "Validation" every position string must pass (null if it does). The
 * further checks of what cannot arise from the start (turn order and the like) are left out: a
 * referee only sends positions that arose. */
function positionProblem(p) {
  for (const colour of [DARK, LIGHT]) {
    for (const len of LENGTHS) {
      const n = p.hand[colour][len] + onBoard(p, colour, len);
      if (n > SET_COUNT[len]) return `${COLOUR[colour]} has ${n} pieces of length ${len}; a set has ${SET_COUNT[len]}`;
      if (p.game === 'isaac' && p.phase === 'place' && n !== SET_COUNT[len]) {
        return `no piece leaves the game in the placement phase, but ${COLOUR[colour]} lacks a piece of length ${len}`;
      }
    }
  }
  const at = [];
  for (let level = 0; level <= MAX_LEVEL; level++) at.push(new Int8Array(100).fill(-1));
  for (const [i, q] of p.pieces.entries()) {
    for (const c of cellsOf(q.lo, q.hi)) {
      if (at[q.level][c] >= 0) return `two pieces on cell ${cellName(c)} (level ${q.level})`;
      at[q.level][c] = i;
    }
  }
  for (const q of p.pieces) {
    if (q.level < 2) continue;
    const [a, b] = [at[q.level - 1][q.lo], at[q.level - 1][q.hi]];
    if (a < 0 || b < 0 || a === b || p.pieces[a].owner !== q.owner || p.pieces[b].owner !== q.owner) {
      return `${segName(q.lo, q.hi)}^${q.level} does not rest on two different ${COLOUR[q.owner]} pieces of level ${q.level - 1}`;
    }
  }
  if (p.passes.length === 1 && p.passes[0] === p.side) return `${COLOUR[p.side]} has passed, so it cannot be to move`;
  if (p.game === 'isaac') {
    if (p.phase === 'place' && (p.scores[0] || p.scores[1])) return 'scores are 0/0 in the placement phase';
    if (p.phase === 'place' && p.passes.length === 2) return 'both have passed, so the placement phase is over';
    if (Math.min(...p.scores) >= 100) return 'only one score can reach 100';
    const dark = counterCell(DARK, p.scores[0]);
    if (dark >= 0 && dark === counterCell(LIGHT, p.scores[1])) return 'both counters on one cell';
  }
  return null;
}

module.exports = {
  DARK, LIGHT, COLOUR, GAMES, SET_COUNT, VALUE, LENGTHS, OFF, Illegal, isVertical, lengthOf, cellName, segName,
  startPosition, grid, isOver, scores, legalMoves, countMoves, perft, makeMove, describeResult, positionProblem,
  currentLevel, counterCell,
};
