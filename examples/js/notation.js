'use strict';
/* notation.js: moves (SPEC 6) and position strings (SPEC 7), read and written.
 *
 * Reading throws a BadNotation with the 1-based column where the text went wrong and what was
 * expected there; writing is always canonical.
 */
const R = require('./rules.js');

class BadNotation extends Error {
  constructor(column, message) {
    super(message);
    this.column = column;
  }
}

const CELL = /^[a-j][0-9]/;

/** A reader over one word: cells, segments and the little words of the notation. */
class Cursor {
  constructor(text) {
    this.text = text;
    this.i = 0;
  }

  fail(expected, at = this.i) {
    throw new BadNotation(at + 1, `expected ${expected}`);
  }

  take(word) {
    if (!this.text.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }

  atEnd() {
    return this.i === this.text.length;
  }

  end() {
    if (!this.atEnd()) this.fail('the end of the move');
  }

  number(what) {
    const digits = /^[0-9]+/.exec(this.text.slice(this.i));
    if (!digits) this.fail(what);
    this.i += digits[0].length;
    return Number(digits[0]);
  }

  cell() {
    if (!CELL.test(this.text.slice(this.i))) this.fail('a cell (a0 to j9)');
    this.i += 2;
    return (this.text.charCodeAt(this.i - 1) - 48) * 10 + (this.text.charCodeAt(this.i - 2) - 97);
  }

  /** Two end cells of a piece, either end first: [lo, hi]. */
  segment() {
    const start = this.i;
    const a = this.cell();
    const b = this.cell();
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const line = Math.floor(lo / 10) === Math.floor(hi / 10) || (lo % 10 === hi % 10 && lo !== hi);
    if (!line || R.lengthOf(lo, hi) < 3 || R.lengthOf(lo, hi) > 7) {
      throw new BadNotation(start + 1, `'${this.text.slice(start, this.i)}' is not a piece: its ends must lie on `
        + 'one row or column, 3 to 7 cells long counting both ends');
    }
    return [lo, hi];
  }
}

/** A move of `game` from its text, in any accepted spelling (SPEC 6). */
function parseMove(game, text) {
  const at = new Cursor(text);
  if (text === 'pass') return { kind: 'pass', slides: [] };
  if (game === 'isaac') {
    if (at.take('x')) {
      const [lo, hi] = at.segment();
      if (!at.take(':')) at.fail("':' and the new score");
      const score = at.number('the new score');
      at.end();
      return { kind: 'remove', lo, hi, score, slides: [] };
    }
    const [lo, hi] = at.segment();
    at.end();
    return { kind: 'place', lo, hi, level: 1, slides: [] };
  }
  if (game === 'foundations') {
    const [lo, hi] = at.segment();
    const level = at.take('^') ? at.number('a level') : 1;
    at.end();
    if (level < 1) at.fail('a level of 1 or more', at.i - 1);
    return { kind: 'place', lo, hi, level, slides: [] };
  }
  const slides = []; // HARI: slides, each followed by ',', then the play
  for (;;) {
    if (at.take('x')) {
      const length = at.number('a length to discard (3 to 7)');
      if (length < 3 || length > 7) at.fail('a length to discard (3 to 7)', at.i - 1);
      at.end();
      return { kind: 'discard', length, slides };
    }
    const [lo, hi] = at.segment();
    if (at.atEnd()) return { kind: 'place', lo, hi, level: 1, slides };
    if (!at.take('>')) at.fail("'>' (a slide) or the end of the move");
    const to = at.take('off') ? R.OFF : at.text.startsWith('o', at.i) ? at.fail("'off'") : at.segment();
    slides.push({ lo, hi, to });
    if (!at.take(',')) at.fail("',' and the next slide or the play");
  }
}

function formatMove(m) {
  if (m.kind === 'pass') return 'pass';
  const slides = m.slides.map((s) => `${R.segName(s.lo, s.hi)}>${s.to === R.OFF ? 'off' : R.segName(s.to[0], s.to[1])},`);
  if (m.kind === 'remove') return `x${R.segName(m.lo, m.hi)}:${m.score}`;
  if (m.kind === 'discard') return `${slides.join('')}x${m.length}`;
  return slides.join('') + R.segName(m.lo, m.hi) + (m.level > 1 ? `^${m.level}` : '');
}

// ---- position strings --------------------------------------------------------------------------

const SIDES = { d: R.DARK, l: R.LIGHT };

/** Read "dark/light" of a field: each half by `read(text, column, colour)`. */
function halves(field, what, read) {
  const parts = field.text.split('/');
  if (parts.length !== 2) throw new BadNotation(field.col, `expected ${what} as <dark>/<light>`);
  return [read(parts[0], field.col, R.DARK), read(parts[1], field.col + parts[0].length + 1, R.LIGHT)];
}

function readPieces(game) {
  return (text, col, colour) => {
    if (text === '-') return [];
    let offset = 0;
    return text.split(',').map((item) => {
      const at = new Cursor(item);
      try {
        const [lo, hi] = at.segment();
        const level = game === 'foundations' && at.take('^') ? at.number('a level') : 1;
        at.end();
        if (level < 1 || level > 8) throw new BadNotation(at.i, 'expected a level from 1 to 8');
        offset += item.length + 1;
        return { lo, hi, owner: colour, level };
      } catch (error) {
        if (error instanceof BadNotation) throw new BadNotation(col + offset + error.column - 1, error.message);
        throw error;
      }
    });
  };
}

function readHand(text, col) {
  const hand = new Array(8).fill(0);
  if (text === '-') return hand;
  for (const [k, ch] of [...text].entries()) {
    if (ch < '3' || ch > '7') throw new BadNotation(col + k, 'expected piece lengths (digits 3 to 7) or -');
    hand[Number(ch)]++;
  }
  return hand;
}

/** A position from the fields of a position string: [{text, col}] (col: 1-based, in the line). */
function parsePosition(fields) {
  const game = fields[0].text;
  if (!R.GAMES.includes(game)) throw new BadNotation(fields[0].col, 'expected a game: isaac, foundations or hari');
  const want = game === 'isaac' ? 7 : 5;
  if (fields.length !== want) {
    const col = fields[Math.min(fields.length, want) - 1].col;
    throw new BadNotation(col, `${game} position strings have ${want} fields, not ${fields.length}`);
  }
  const p = R.startPosition(game);
  p.pieces = halves(fields[1], 'pieces', readPieces(game)).flat();
  p.hand = halves(fields[2], 'hands', readHand);
  if (!(fields[3].text in SIDES)) throw new BadNotation(fields[3].col, 'expected side to move (d or l)');
  p.side = SIDES[fields[3].text];
  if (!['-', 'd', 'l', 'dl', 'ld'].includes(fields[4].text)) throw new BadNotation(fields[4].col, 'expected passes (-, d, l, dl or ld)');
  p.passes = fields[4].text === '-' ? [] : [...fields[4].text].map((ch) => SIDES[ch]);
  if (game === 'isaac') {
    if (!['place', 'score'].includes(fields[5].text)) throw new BadNotation(fields[5].col, 'expected phase (place or score)');
    p.phase = fields[5].text;
    p.scores = halves(fields[6], 'scores', (text, col) => {
      if (!/^[0-9]{1,3}$/.test(text)) throw new BadNotation(col, 'expected a score');
      return Number(text);
    });
  }
  const problem = R.positionProblem(p);
  if (problem) throw new BadNotation(fields[0].col, problem);
  return p;
}

function formatPosition(p) {
  const order = (a, b) => a.level - b.level || a.lo - b.lo || a.hi - b.hi;
  const pieces = [R.DARK, R.LIGHT].map((colour) => {
    const mine = p.pieces.filter((q) => q.owner === colour).sort(order);
    return mine.length ? mine.map((q) => R.segName(q.lo, q.hi) + (q.level > 1 ? `^${q.level}` : '')).join(',') : '-';
  });
  const hands = p.hand.map((h) => R.LENGTHS.map((len) => String(len).repeat(h[len])).join('') || '-');
  const passes = p.passes.map((c) => 'dl'[c]).join('') || '-';
  const text = `${p.game} ${pieces.join('/')} ${hands.join('/')} ${'dl'[p.side]} ${passes}`;
  return p.game === 'isaac' ? `${text} ${p.phase} ${p.scores.join('/')}` : text;
}

module.exports = { BadNotation, parseMove, formatMove, parsePosition, formatPosition };
