#!/usr/bin/env node
'use strict';
/* starter.js: a starter engine for ISAAC, FOUNDATIONS and HARI in JavaScript (Node 20, no packages),
 * written from SPEC.md alone. The protocol (SPEC 9) is here; the rules are in rules.js and the
 * notation in notation.js.
 *
 * Try:    printf 'uci\nposition startpos\ngo movetime 100\nquit\n' | node starter.js
 * Check:  isaac-referee check node examples/js/starter.js
 *
 * Node writes to a pipe synchronously on Linux, so every line is out as soon as say() returns;
 * diagnostics go to stderr (console.error), never to stdout. The player answers at once: a
 * longer search must give the event loop a turn every few milliseconds (or run in a
 * worker_threads Worker) so that `isready` and `stop` are answered while it thinks.
 *
 * **Your player goes in chooseMove()**; the time it may use is budgetMs().
 */
const R = require('./rules.js');
const N = require('./notation.js');

const NAME = 'isaac-arena JavaScript starter 1.0';
const MAX_LINE = 65536; // longer lines are read to their end and dropped (SPEC 9.1)
const SEED_MAX = 2147483647;
const RESERVE_MS = 30; // kept back from every budget for the pipe and a busy machine

class Refused extends Error {} // a line the engine cannot obey: one error line, nothing changes

const state = {
  variant: 'isaac', seed: 0, rng: null, position: R.startPosition('isaac'), held: null,
  reached: null, // how `position` reached state.position: {start: 'startpos' or the position string, moves}
};

function say(line) {
  process.stdout.write(`${line}\n`);
}

// ---- choosing a move ----------------------------------------------------------------------------

/** A small seeded generator (mulberry32): the same Seed and commands give the same games. */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How long to think, in ms, from the limits of `go` (null: until stop, or no time limit). */
function budgetMs(limits, side) {
  if (limits.infinite) return null;
  if (limits.movetime !== undefined) return Math.max(1, limits.movetime - RESERVE_MS);
  const left = limits.time[side];
  if (left === undefined) return null;
  const share = left / (limits.movestogo || 20) + 0.8 * (limits.inc[side] || 0);
  return Math.max(1, Math.min(share, left / 2) - RESERVE_MS);
}

/** A beginner's rule of thumb, bigger is better: in ISAAC's scoring phase the highest new score; in
 * FOUNDATIONS and HARI the shortest piece that fits (both let a player place pieces in non-decreasing
 * length only, so a long piece early ends the run), and a HARI discard only when nothing fits. */
function preference(p, m) {
  if (m.kind === 'remove') return m.score;
  return m.kind === 'place' && p.game !== 'isaac' ? 8 - R.lengthOf(m.lo, m.hi) : 0;
}

/** The placeholder player: of the moves without slides, one the rule of thumb likes best (ties broken
 * at random). It looks no further, so it is weak: replace it with your search, keeping to
 * budgetMs(limits, p.side) milliseconds from `started` (Date.now() when `go` arrived). */
function chooseMove(p, limits, started) {
  let best = [];
  let bestValue = -Infinity;
  for (const m of R.legalMoves(p, false)) {
    const value = preference(p, m);
    if (value > bestValue) [best, bestValue] = [[], value];
    if (value === bestValue) best.push(m);
  }
  return best[Math.floor(state.rng() * best.length)];
}

/** Run the player once in each game before the first `go`, so that Node's compiler has seen the
 * code before a move is timed (the first `go` of a fresh process is otherwise several times slower). */
function warmUp() {
  const rng = state.rng;
  state.rng = generator(0);
  for (const game of R.GAMES) {
    let p = R.startPosition(game);
    for (let ply = 0; ply < 4 && !R.isOver(p); ply++) p = R.makeMove(p, chooseMove(p, {}, Date.now()));
    N.formatPosition(p);
  }
  state.rng = rng;
}

// ---- reading commands ---------------------------------------------------------------------------

/** The words of a line and their 1-based columns; blanks are spaces and tabs only (SPEC 9.1). */
function words(line) {
  const out = [];
  const re = /[^ \t]+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ text: m[0], col: [...line.slice(0, m.index)].length + 1 });
  return out;
}

const quoted = (text) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text).replace(/^"|"$/g, "'");

/** A whole number of ASCII digits with an optional minus, in [lo, hi], never clamped (SPEC 9.4). */
function wholeNumber(word, lo, hi, what) {
  if (!word || !/^-?[0-9]+$/.test(word.text)) {
    throw new Refused(`${what} needs a whole number, not ${quoted(word ? word.text : '')}${word ? ` (column ${word.col})` : ''}`);
  }
  const digits = word.text.replace('-', '').length;
  const value = BigInt(word.text);
  const shown = digits > 18 ? `a ${digits}-digit number` : word.text;
  if (value > BigInt(hi)) throw new Refused(`${what} must be at most ${hi}, not ${shown} (column ${word.col})`);
  if (value < BigInt(lo)) throw new Refused(`${what} must be at least ${lo}, not ${shown} (column ${word.col})`);
  return Number(value);
}

const TIME_MAX = 2147483647;
const GO_WORDS = { // word: [limit, lowest, highest]
  p1time: ['time0', 0, TIME_MAX], wtime: ['time0', 0, TIME_MAX], p2time: ['time1', 0, TIME_MAX], btime: ['time1', 0, TIME_MAX],
  p1inc: ['inc0', 0, TIME_MAX], winc: ['inc0', 0, TIME_MAX], p2inc: ['inc1', 0, TIME_MAX], binc: ['inc1', 0, TIME_MAX],
  movestogo: ['movestogo', 1, 10000], movetime: ['movetime', 0, TIME_MAX], depth: ['depth', 1, 1000],
  nodes: ['nodes', 1, '9223372036854775807'], perft: ['perft', 0, 1000],
};

function parseGo(w) {
  const seen = {};
  for (let i = 1; i < w.length; i++) {
    const spec = GO_WORDS[w[i].text];
    if (!spec && w[i].text !== 'infinite') throw new Refused(`go: unknown word ${quoted(w[i].text)} at column ${w[i].col}`);
    const key = spec ? spec[0] : 'infinite';
    if (key in seen) throw new Refused(`go: ${w[i].text} given twice (column ${w[i].col})`);
    seen[key] = spec ? wholeNumber(w[++i], spec[1], spec[2], w[i - 1].text) : true;
  }
  if ('perft' in seen && w.length !== 3) throw new Refused('go perft <n> takes no other word');
  return {
    time: [seen.time0, seen.time1], inc: [seen.inc0, seen.inc1], movestogo: seen.movestogo, movetime: seen.movetime,
    depth: seen.depth, nodes: seen.nodes, infinite: Boolean(seen.infinite), perft: seen.perft,
  };
}

// ---- the commands ---------------------------------------------------------------------------------

function uci() {
  warmUp();
  say(`id name ${NAME}`);
  say("id author isaac-arena participants' kit");
  say(`option name UCI_Variant type combo default isaac ${R.GAMES.map((g) => `var ${g}`).join(' ')}`);
  say(`option name Seed type spin default 0 min 0 max ${SEED_MAX}`);
  say('uciok');
}

/** setoption name <name> [value <value>]: names and combo values are case-insensitive. */
function setoption(w) {
  const v = w.findIndex((x) => x.text === 'value');
  if (w.length < 3 || w[1].text !== 'name' || v === 2) throw new Refused("setoption: expected 'setoption name <name> value <value>'");
  const name = w.slice(2, v < 0 ? w.length : v).map((x) => x.text).join(' ');
  if (v < 0 || v + 2 !== w.length) throw new Refused(`option ${quoted(name)} needs one word as its value`);
  const value = w[v + 1];
  if (name.toLowerCase() === 'uci_variant') {
    const game = value.text.toLowerCase();
    if (!R.GAMES.includes(game)) {
      throw new Refused(`option UCI_Variant has no value ${quoted(value.text)} (column ${value.col}); values: ${R.GAMES.join(', ')}`);
    }
    state.variant = game;
    [state.position, state.reached] = [R.startPosition(game), null]; // choosing a game resets the position
  } else if (name.toLowerCase() === 'seed') {
    state.seed = wholeNumber(value, 0, SEED_MAX, 'option Seed');
    state.rng = generator(state.seed);
  } else {
    throw new Refused(`unknown option ${quoted(name)} (column ${w[2].col}); options: UCI_Variant, Seed`);
  }
}

/** position startpos|fen <position string> [moves ...]: checked as a whole before anything changes,
 * so a refused command leaves the previous position in place. A referee sends the whole game before
 * every move: when it extends the position reached last, only the new moves are read. */
function position(w) {
  let at = w.findIndex((x) => x.text === 'moves');
  if (at < 0) at = w.length;
  const start = w.slice(1, at).map((x) => x.text).join(' ');
  const moves = w.slice(at + 1).map((x) => x.text);
  const done = state.reached;
  let p;
  let first = 0;
  if (done && done.start === start && done.moves.every((m, k) => moves[k] === m)) {
    [p, first] = [state.position, done.moves.length];
  } else if (w.length > 1 && w[1].text === 'startpos' && at === 2) {
    p = R.startPosition(state.variant);
  } else if (w.length > 1 && w[1].text === 'fen' && at > 2) {
    try {
      p = N.parsePosition(w.slice(2, at));
    } catch (error) {
      if (!(error instanceof N.BadNotation)) throw error;
      throw new Refused(`position: bad position string at column ${error.column}: ${error.message}`);
    }
    if (p.game !== state.variant) {
      throw new Refused(`position: a ${p.game} position, but UCI_Variant is ${state.variant} `
        + `(send setoption name UCI_Variant value ${p.game} first)`);
    }
  } else {
    throw new Refused(`position: expected 'startpos' or 'fen <position string>', then 'moves ...' (column ${w.length > 1 ? w[1].col : 9})`);
  }
  for (let i = at + 1 + first; i < w.length; i++) {
    const shown = `move ${i - at} ${quoted(w[i].text)}`;
    try {
      p = R.makeMove(p, N.parseMove(p.game, w[i].text));
    } catch (error) {
      if (error instanceof N.BadNotation) throw new Refused(`position: ${shown} at column ${w[i].col + error.column - 1}: bad notation: ${error.message}`);
      if (error instanceof R.Illegal) throw new Refused(`position: ${shown} at column ${w[i].col}: illegal: ${error.message}`);
      throw error;
    }
  }
  [state.position, state.reached] = [p, { start, moves }];
}

function go(w) {
  if (state.held) throw new Refused('go: a search is running; send stop first');
  const limits = parseGo(w);
  const p = state.position;
  if (limits.perft !== undefined) {
    let total = limits.perft === 0 ? 1 : 0;
    for (const m of limits.perft > 0 ? R.legalMoves(p) : []) {
      const count = R.perft(R.makeMove(p, m), limits.perft - 1);
      say(`${N.formatMove(m)}: ${count}`);
      total += count;
    }
    say('');
    say(`Nodes searched: ${total}`);
    return;
  }
  if (R.isOver(p)) { // answered at once, also after go infinite
    say(`info string game over: ${R.describeResult(p)}`);
    say('bestmove (none)');
    return;
  }
  const started = Date.now();
  const move = N.formatMove(chooseMove(p, limits, started));
  if (limits.infinite && move !== 'pass') state.held = move; // printed on stop
  else say(`bestmove ${move}`);
}

function stop() {
  if (state.held) say(`bestmove ${state.held}`); // nothing running: ignored in silence
  state.held = null;
}

/** d: the board for people (each cell's top piece, FOUNDATIONS with its level) and the position string. */
function display() {
  const p = state.position;
  const at = R.grid(p);
  say('    a  b  c  d  e  f  g  h  i  j');
  for (let rank = 9; rank >= 0; rank--) {
    let row = ` ${rank}  `;
    for (let file = 0; file < 10; file++) {
      let level = 9;
      while (level > 0 && at[level][rank * 10 + file] < 0) level--;
      const q = level > 0 ? p.pieces[at[level][rank * 10 + file]] : null;
      row += `${q ? 'DL'[q.owner] : '.'}${q && p.game === 'foundations' ? level : ' '} `;
    }
    say(`${row} ${rank}`);
  }
  say(R.isOver(p) ? `Game over: ${R.describeResult(p)}` : `Side to move: ${R.COLOUR[p.side]}`);
  say(`Position: ${N.formatPosition(p)}`);
}

function moves(w) {
  if (w.length !== 1) throw new Refused('moves: only the bare form is supported');
  if (state.held) throw new Refused('moves: a search is running; send stop first');
  say(['moves', ...R.legalMoves(state.position).map(N.formatMove)].join(' '));
}

const COMMANDS = {
  uci, isready: () => say('readyok'), setoption, position, go, stop, d: display, moves,
  ucinewgame: () => { [state.position, state.reached] = [R.startPosition(state.variant), null]; state.rng = generator(state.seed); },
  debug: () => {},
  ponderhit: () => { throw new Refused('ponderhit: pondering is not supported'); },
  quit: () => process.exit(0),
};

function handle(line) {
  const w = words(line);
  if (w.length === 0) return; // an empty line, or blanks only
  const command = Object.hasOwn(COMMANDS, w[0].text) ? COMMANDS[w[0].text] : null;
  try {
    if (!command) {
      throw new Refused(`unknown command ${quoted(w[0].text)} (column ${w[0].col}); commands are ${Object.keys(COMMANDS).join(', ')}`);
    }
    command(w);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    say(`info string error: ${error.message}`);
  }
}

// ---- input: whole lines, UTF-8 with bad bytes read as U+FFFD ------------------------------------------

function main() {
  state.rng = generator(state.seed);
  let pending = Buffer.alloc(0);
  let dropping = false; // inside a line over MAX_LINE bytes
  process.stdin.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
      let line = pending.subarray(0, end);
      pending = pending.subarray(end + 1);
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      if (dropping || line.length > MAX_LINE) say(`info string error: line longer than ${MAX_LINE} bytes dropped; nothing of it was obeyed`);
      else handle(line.toString('utf8'));
      dropping = false;
    }
    if (pending.length > MAX_LINE + 1) { // keep memory bounded: the rest of this line is dropped
      dropping = true;
      pending = Buffer.alloc(0);
    }
  });
  process.stdin.on('end', () => process.exit(0)); // the end of input ends the engine, like quit
}

main();
