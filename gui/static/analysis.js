// The Analysis tab: a line of moves (a game from the Play tab or a run, a pasted position string, a
// link) walked ply by ply by clicks, buttons and keys (arrows, Home, End), an engine's evaluation as
// each side's chances with its best lines (MultiPV) drawn on the board, and moves entered on the
// board to explore. The server keeps the line and runs the engine (gui/analysis.py).

import {clearLayer, drawLine, showBoard} from "./board.js";
import {Entry} from "./entry.js";
import {fillCard, fillMoves, resultText} from "./panels.js";
import {exportText, gameLink, showExport, wireExportCopy} from "./share.js";
import {saveSettings} from "./store.js";
import {evaluation, fillLine, searchText} from "./thinking.js";

const $ = (id) => document.getElementById(id);

const an = {
  send: null,
  gameInfo: {},
  line: null,       // the last analysis_line message
  position: null,   // the last analysis_position message
  ply: 0,           // the ply shown
  target: 0,        // the ply last asked for (keys pressed quickly count from it, not from the ply shown)
  serial: -1,       // the analysis run shown (older runs' lines are dropped)
  exportWanted: "pgn",
  entry: null,
  chosen: 1,        // the line drawn on the board (MultiPV rank; a click on a line chooses it)
};

export function onHello(m, saved) {
  const engine = $("a-engine");
  for (const e of m.engines) {
    const o = document.createElement("option");
    o.value = e;
    o.textContent = e;
    engine.appendChild(o);
  }
  engine.value = m.analysis_engine || m.engines[0];
  for (let k = 1; k <= m.max_lines; k++) {
    const o = document.createElement("option");
    o.value = String(k);
    o.textContent = String(k);
    $("a-lines").appendChild(o);
  }
  const settings = saved.analysis || {};
  if (settings.engine && m.engines.includes(settings.engine)) engine.value = settings.engine;
  if (settings.lines) $("a-lines").value = String(settings.lines);
  if (settings.on === false) $("a-on").checked = false;
  sendSettings();
}

function sendSettings() {
  const lines = Number($("a-lines").value) || 1;
  const settings = {engine: $("a-engine").value, lines, on: $("a-on").checked};
  saveSettings({analysis: settings});
  an.send({t: "analysis_settings", ...settings});
}

/** Open a line on the analysis board: {position, moves, ply, sides, label, result, tc, flipped}. */
export function open(source) {
  $("a-error").textContent = "";
  an.send({t: "analysis_load", ...source});
}

export function onLine(m) {
  an.line = m;
  $("a-label").textContent = m.label ? `Moves · ${m.label}` : "Moves";
  $("a-stack").classList.toggle("flipped", Boolean(m.flipped));
  $("a-export").hidden = true;
}

export function onPosition(m) {
  an.position = m;
  an.ply = m.ply;
  an.target = m.ply;
  const line = an.line;
  const board = $("a-board");
  showBoard(board, m.svg);
  board.dataset.ply = String(m.ply);
  board.dataset.game = m.state.game;
  const info = an.gameInfo[m.state.game];
  const sides = (line ? line.sides : ["?", "?"]).map((s) => (s === "?" ? "" : s));
  fillCard($("a-card-d"), "d", sides[0], m.state, info, m.result);
  fillCard($("a-card-l"), "l", sides[1], m.state, info, m.result);
  if (line) {
    fillMoves($("a-moves"), line.moves, line.movers.slice(0, line.moves.length), m.ply - 1,
      (ply) => goto(ply + 1));
    $("a-ply-text").textContent = `move ${m.ply} of ${line.moves.length}`;
  }
  let title = "", detail = "";
  if (m.result) {
    ({title, detail} = resultText(m.result, m.state, info));
  } else {
    title = `${m.state.turn === "d" ? "Dark" : "Light"} to move`;
    if (m.state.game === "isaac") detail = m.state.phase === "score" ? "scoring phase" : "placement phase";
  }
  $("a-status-title").textContent = title;
  $("a-status-detail").textContent = detail;
  $("a-status").dataset.result = m.result ? m.result.result : "";
  if (document.activeElement !== $("a-position")) $("a-position").value = m.state.position;
  clearEngine();
  an.chosen = 1;
  an.entry.newPosition(m.state.turn);
}

export function onSteps(m) { an.entry.onSteps(m); }

function goto(ply) {
  if (!an.line) return;
  const target = Math.max(0, Math.min(an.line.moves.length, ply));
  if (target === an.target) return;
  an.target = target;
  an.send({t: "analysis_goto", ply: target});
}

// -- the engine's analysis -----------------------------------------------------------------------
function clearEngine() {
  $("a-info").textContent = "";
  $("a-pvs").replaceChildren();
  delete $("a-pvs").dataset.lines;
  $("a-eval-text").textContent = "-";
  $("a-evalfill").style.width = "50%";
  $("a-engine-box").dataset.depth = "";
  const svg = $("a-board").querySelector("svg");
  if (svg) clearLayer(svg, "pv");
}

export function onAnalysis(m) {
  if (m.ply !== an.ply || m.serial < an.serial) return;   // a position no longer shown
  an.serial = m.serial;
  const box = $("a-engine-box");
  if (m.idle) {
    clearEngine();
    $("a-info").textContent = m.idle === "over" ? "The game is over." : m.idle === "error"
      ? `The engine failed: ${m.error}` : "Engine off.";
    return;
  }
  const lines = m.lines || [];
  const best = lines[0] || {};
  const ev = evaluation(best.score, best.wdl, m.side);
  if (ev) {
    $("a-eval-text").textContent = ev.text;
    $("a-evalfill").style.width = `${ev.dark.toFixed(1)}%`;
  }
  box.dataset.depth = String(m.depth ?? "");
  box.dataset.lines = String(lines.length);
  const given = m.lines_given < m.lines_asked ? ` (${m.engine} gives one line)` : "";
  $("a-info").textContent = `${m.engine}: ${searchText(m)}${m.final ? " · stopped" : ""}${given}`;
  const list = $("a-pvs");
  const key = JSON.stringify(lines.map((l) => [l.score, l.wdl, l.pv]));
  if (list.dataset.lines !== key) fillLines(list, lines, m.side);
  list.dataset.lines = key;
  const shown = lines.find((l) => l.multipv === an.chosen) || best;
  for (const li of list.children) li.classList.toggle("current", li.dataset.multipv === String(shown.multipv));
  drawBest(shown.pv || []);
}

function fillLines(list, lines, side) {
  list.replaceChildren();
  for (const line of lines) {
    const li = document.createElement("li");
    li.dataset.multipv = String(line.multipv);
    const lineEval = evaluation(line.score, line.wdl, side);
    const head = document.createElement("span");
    head.className = "line-eval";
    head.textContent = lineEval ? lineEval.text : "";
    const moves = document.createElement("span");
    moves.className = "pv-moves";
    fillLine(moves, line.pv || [], side);
    li.append(head, moves);
    li.title = "draw this line on the board";
    li.onclick = () => {
      an.chosen = line.multipv;
      for (const other of list.children) other.classList.toggle("current", other === li);
      drawBest(line.pv || []);
    };
    list.appendChild(li);
  }
}

function drawBest(pv) {
  const svg = $("a-board").querySelector("svg");
  if (svg) drawLine(svg, pv, 3);
}

// -- export --------------------------------------------------------------------------------
export function onExport(m) {
  showExport("a", exportText(m, an.exportWanted), an.exportWanted);
}

function askExport(kind) {
  an.exportWanted = kind;
  an.send({t: "export", board: "analysis"});
}

function analysePosition(event) {
  event.preventDefault();
  open({position: $("a-position").value, moves: [], label: "a position set up"});
}

/** Arrow keys, Home and End walk the line while the Analysis tab is shown (not while typing). */
function onKey(event) {
  if ($("analysis").hidden || !an.line) return;
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const moves = {ArrowLeft: an.target - 1, ArrowRight: an.target + 1, Home: 0, End: an.line.moves.length}[event.key];
  if (moves === undefined) return;
  event.preventDefault();
  goto(moves);
}

export function redraw() { if (an.entry) an.entry.drawMarks(); }

export function initAnalysis(send, gameInfo) {
  an.send = send;
  an.gameInfo = gameInfo;
  an.entry = new Entry({entry: "a-entry", entered: "a-entered", choices: "a-choices", unstep: "a-unstep",
                        clear: "a-clear", board: "a-board", levelView: "a-level-view"},
                       {send: (word) => send({t: "analysis_step", word}), unsend: () => send({t: "analysis_unstep"}),
                        info: () => (an.position ? an.gameInfo[an.position.state.game] : null), quiet: true});
  $("a-first").onclick = () => goto(0);
  $("a-prev").onclick = () => goto(an.target - 1);
  $("a-next").onclick = () => goto(an.target + 1);
  $("a-last").onclick = () => goto(Infinity);
  $("a-on").onchange = sendSettings;
  $("a-engine").onchange = sendSettings;
  $("a-lines").onchange = sendSettings;
  $("a-flip").onclick = () => send({t: "analysis_settings", flipped: !(an.line && an.line.flipped)});
  $("a-setup-form").addEventListener("submit", analysePosition);
  $("a-link").onclick = () => {
    if (an.line) showExport("a", gameLink(an.line.start, an.line.moves, an.ply), "link");
  };
  $("a-record").onclick = () => askExport("record");
  $("a-pgn").onclick = () => askExport("pgn");
  wireExportCopy("a");
  document.addEventListener("keydown", onKey);
}

export function onError(m) { $("a-error").textContent = m.text; }
