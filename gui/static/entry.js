// Entering a move on a board by clicks, for any board of the page (the game being played, the
// analysis board). It knows no rules: the server sends the legal next steps (`steps` messages);
// clicks on cells and pieces are matched to those steps through the notation's cell names
// ([a-j][0-9]), and the steps entered so far are drawn on the board (board.js).

import {cellsOf, drawHints, drawPreview, drawTargets, pieceAt, showLevel} from "./board.js";
import {element} from "./dom.js";
import {levelButtons} from "./panels.js";

const MAX_SCORE_BUTTONS = 8;
/** More new scores than this (an ISAAC removal earning many points): the best as a button, the rest in a menu. */

function sameEnds(pair, got) {
  if (got.length === 1) return pair.includes(got[0]);
  return (got[0] === pair[0] && got[1] === pair[1]) || (got[0] === pair[1] && got[1] === pair[0]);
}

/** An option fits the clicked cells when they name its cells pair by pair (segment ends, either order). */
function fits(word, sel) {
  const cells = cellsOf(word);
  if (sel.length > cells.length) return false;
  for (let i = 0; i < sel.length; i += 2) {
    if (!sameEnds(cells.slice(i, i + 2), sel.slice(i, i + 2))) return false;
  }
  return true;
}

export function stepLabel(word) {
  const bare = word.replace(/\*$/, "");
  if (bare === "pass") return "pass";
  if (/^x\d$/.test(bare)) return `discard ${bare.slice(1)}`;
  if (/^\d+$/.test(bare)) return `score ${bare}`;
  return bare;
}

export class Entry {
  /** `ids`: element ids {entry, entered, choices, unstep, clear, board, levelView}; `send(word)` enters a
   *  step, `unsend()` takes one back; `info()` the game's words (for FOUNDATIONS' level view). */
  constructor(ids, {send, unsend, info, quiet = false}) {
    const $ = (id) => document.getElementById(id);
    this.el = {entry: $(ids.entry), entered: $(ids.entered), choices: $(ids.choices), unstep: $(ids.unstep),
               clear: $(ids.clear), board: $(ids.board), levelView: $(ids.levelView)};
    this.send = send;
    this.unsend = unsend;
    this.info = info;
    this.quiet = quiet;   // marks only once a click begins a step (an analysis board keeps its lines readable)
    this.side = "d";
    this.view = "all";   // FOUNDATIONS: the board level shown ("all" or a number)
    this.reset();
    this.el.board.addEventListener("click", (event) => this.click(event));
    this.el.unstep.onclick = () => { this.sel = []; this.unsend(); };
    this.el.clear.onclick = () => { this.sel = []; this.render(); };
  }

  reset() {
    this.options = []; this.steps = []; this.sel = []; this.prefix = "-"; this.targets = {};
  }

  svg() { return this.el.board.querySelector("svg"); }

  /** A new position drawn: nothing is being entered until the server offers steps. */
  newPosition(side) {
    this.side = side;
    this.reset();
    this.render();
  }

  onSteps(m) {
    this.options = m.options;
    this.steps = m.steps;
    this.prefix = m.prefix;
    this.targets = m.targets || {};
    this.sel = [];
    this.render();
  }

  candidates(sel) { return this.options.filter((w) => cellsOf(w).length > 0 && fits(w, sel)); }

  nextCells(sel) {
    const out = new Set();
    for (const w of this.candidates(sel)) {
      const cells = cellsOf(w);
      if (cells.length <= sel.length) continue;
      if (sel.length % 2 === 1) {
        const pair = cells.slice(sel.length - 1, sel.length + 1);
        out.add(pair[0] === sel[sel.length - 1] ? pair[1] : pair[0]);
      } else {
        out.add(cells[sel.length]); out.add(cells[sel.length + 1]);
      }
    }
    return out;
  }

  click(event) {
    if (!this.options.length) return;
    let cell = null;
    for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
      if (!cell && el.dataset && el.dataset.cell) cell = el.dataset.cell;
    }
    const svg = this.svg();
    const under = svg ? pieceAt(svg, event.clientX, event.clientY) : null;
    const segment = under ? under.dataset.segment : null;
    if (cell) {   // the mover's counter placed on one of the cells offered for it
      const scored = Object.keys(this.targets).find((o) => this.targets[o] === cell);
      if (scored) return this.enter(scored);
    }
    this.pick(cell, segment);
  }

  /** A click on a piece picks its whole segment when an offered step starts there; otherwise the cell. */
  pick(cell, segment) {
    const tries = [];
    const ends = segment ? cellsOf(segment) : [];
    if (ends.length === 2 && this.sel.length % 2 === 0) tries.push(this.sel.concat(ends));
    if (cell) tries.push(this.sel.concat([cell]));
    if (ends.length === 2) tries.push(ends);
    if (cell) tries.push([cell]);
    const sel = tries.find((s) => this.candidates(s).length > 0);
    this.sel = sel || [];
    const left = this.candidates(this.sel);
    if (this.sel.length && left.length === 1) return this.enter(left[0]);
    this.render();
  }

  enter(word) {
    this.sel = [];
    this.el.entry.dataset.ready = "0";
    this.send(word);
  }

  /** Cells clicked for the step being entered, put back (a reload restores a half-entered move). */
  restoreSelection(sel) {
    const cells = (sel || []).filter((c) => typeof c === "string");
    if (cells.length && this.candidates(cells).length) {
      this.sel = cells;
      this.render();
    }
  }

  render() {
    const entry = this.el.entry;
    const ready = this.options.length > 0;
    entry.dataset.ready = ready ? "1" : "0";
    entry.dataset.sel = this.sel.join(" ");
    entry.dataset.options = this.options.join(" ");
    entry.dataset.steps = this.steps.join(" ");
    entry.dataset.targets = Object.entries(this.targets).map(([o, c]) => `${o}=${c}`).join(" ");
    const shown = (this.prefix === "-" ? "" : this.prefix) + (this.sel.length ? ` [${this.sel.join(" ")}]` : "");
    this.el.entered.textContent = shown || "-";
    this.renderChoices();
    this.el.unstep.disabled = this.steps.length === 0;
    this.el.clear.disabled = this.sel.length === 0;
    this.drawMarks();
  }

  renderChoices() {
    const choices = this.el.choices;
    choices.replaceChildren();
    const complete = this.sel.length ? this.candidates(this.sel).filter((w) => cellsOf(w).length === this.sel.length) : [];
    let words = this.options.filter((w) => cellsOf(w).length === 0).concat(complete);
    const scores = words.filter((w) => /^\d+\*$/.test(w));
    let menu = [];
    if (scores.length > MAX_SCORE_BUTTONS) {   // the best score a button, the others in a menu
      const best = scores.reduce((a, b) => (parseInt(a, 10) >= parseInt(b, 10) ? a : b));
      menu = scores.filter((w) => w !== best).sort((a, b) => parseInt(b, 10) - parseInt(a, 10));
      words = words.filter((w) => !menu.includes(w));
    }
    if (this.options.length && Object.keys(this.targets).length) {
      choices.appendChild(element("span", {className: "hint-text",
                                           textContent: "Click the cell where your counter goes, or a score:"}));
    }
    for (const w of words) {
      const b = element("button", {type: "button", textContent: stepLabel(w)});
      b.dataset.word = w;
      const discard = w.match(/^x(\d)\*$/);
      if (discard) this.labelDiscard(b, Number(discard[1]));
      if (this.targets[w]) b.title = `the counter goes to ${this.targets[w]}`;
      b.onclick = () => this.enter(w);
      choices.appendChild(b);
    }
    if (menu.length) {
      const select = element("select", {className: "more-steps"});
      select.setAttribute("aria-label", "another score");
      select.appendChild(element("option", {value: "", textContent: "other score..."}));
      for (const w of menu) select.appendChild(element("option", {value: w, textContent: stepLabel(w)}));
      select.onchange = () => { if (select.value) this.enter(select.value); };
      choices.appendChild(select);
    }
  }

  /** A discard's button shows the piece as the hands do: as long as it is, its value written on it. */
  labelDiscard(button, length) {
    const info = this.info();
    const value = info && info.values ? info.values[String(length)] : undefined;
    if (value === undefined) return;
    const bar = element("span", {className: `bar bar-${this.side}`, textContent: String(value)});
    bar.style.width = `${length * 0.3 + 0.4}em`;
    button.replaceChildren("discard ", bar);
    button.title = `discard a piece of length ${length} (value ${value})`;
  }

  drawMarks() {
    const svg = this.svg();
    if (!svg) return;
    const entering = this.options.length > 0;
    this.setUpLevelView();
    showLevel(svg, this.view);
    drawPreview(svg, entering ? this.prefix : "-");
    drawTargets(svg, entering ? this.targets : {}, this.side);
    const hinting = entering && !(this.quiet && this.sel.length === 0);
    drawHints(svg, hinting ? [...this.nextCells(this.sel)] : [], entering ? this.sel : []);
  }

  /** FOUNDATIONS: which board level is shown (buttons up to the highest level in play or offered). */
  setUpLevelView() {
    if (!this.el.levelView) return;
    let top = 1;
    for (const w of this.options) {
      const m = w.match(/\^(\d+)/);
      if (m) top = Math.max(top, Number(m[1]));
    }
    this.view = levelButtons(this.el.levelView, this.svg(), this.info(), top, this.view, (view) => {
      this.view = view;
      this.drawMarks();
    });
  }
}
