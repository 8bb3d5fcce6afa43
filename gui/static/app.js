// isaac-gui page. It knows no rules: the server sends boards (SVG with data-cell / data-segment),
// game states and the legal next steps of the move being entered; this file maps clicks on cells
// to those offered steps, using the notation's cell names ([a-j][0-9]) and nothing else, and draws
// the steps entered so far on the board (board.js).

import {cellsOf, clearLayer, drawHints, drawPreview, drawPv, drawTargets, pieceAt, showBoard, showLevel}
  from "./board.js";
import {fillCard, fillMoves, levelButtons, resultText} from "./panels.js";
import {fillRuns, initRuns, onReplay, onRun} from "./runs.js";
import {loadGame, loadSettings, saveGame, saveSettings} from "./store.js";

const $ = (id) => document.getElementById(id);
const RULE_ENDS = new Set(["both-passed", "score-limit"]);

const ui = {
  socket: null,
  human: "human",
  engines: [],
  gameInfo: {},        // per game: title, measure, lower_score_wins, levels (the registry's words)
  clockLevel: "clock",
  position: null,      // last "position" message
  gameNo: 0,
  options: [],         // offered steps (when it is the person's turn)
  prefix: "-",
  steps: [],
  targets: {},         // option -> cell where it puts the mover's counter (ISAAC's new score)
  sel: [],             // cells clicked for the step being entered
  clockBase: null,     // {clocks, running, at}
  view: "all",         // FOUNDATIONS: the level shown ("all" or a number)
  resuming: false,
};

// -- connection -----------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${proto}//${location.host}/ws`);
  ui.socket = socket;
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => { $("connection").textContent = "disconnected (reload to reconnect)"; };
  socket.onmessage = (event) => handle(JSON.parse(event.data));
}

function send(message) {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) {
    $("error").textContent = "";
    ui.socket.send(JSON.stringify(message));
  }
}

function handle(m) {
  switch (m.t) {
    case "hello": return onHello(m);
    case "position": return onPosition(m);
    case "steps": return onSteps(m);
    case "thinking": return onThinking(m);
    case "runs": return fillRuns(m.runs);
    case "run": return onRun(m);
    case "replay": return onReplay(m);
    case "error": return onError(m);
  }
}

function onError(m) {
  $("error").textContent = m.text;
  if (ui.resuming) {   // the saved game cannot be resumed (engines changed, ...): start afresh
    ui.resuming = false;
    saveGame(null);
    newGame();
  }
}

// -- set-up and new games ----------------------------------------------------------
function option(select, value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label || value;
  select.appendChild(o);
}

function selectIfOffered(select, value) {
  if (value !== undefined && value !== null && [...select.options].some((o) => o.value === String(value))) {
    select.value = String(value);
  }
}

function onHello(m) {
  ui.human = m.human;
  ui.engines = m.engines;
  ui.clockLevel = m.clock_level;
  Object.assign(ui.gameInfo, m.game_info || {});
  for (const g of m.games) option($("game"), g, (ui.gameInfo[g] && ui.gameInfo[g].title) || g.toUpperCase());
  for (const id of ["dark", "light"]) {
    option($(id), m.human, "Human");
    for (const e of m.engines) option($(id), e);
  }
  for (const lv of m.levels) option($("level"), lv.level, lv.label);
  option($("level"), m.clock_level, "full (clock)");
  $("dark").value = m.human;
  $("light").value = m.engines.includes("search") ? "search" : m.engines[0];
  $("level").value = String(m.level);
  $("tc").value = m.tc;
  const saved = loadSettings();
  selectIfOffered($("game"), saved.game);
  selectIfOffered($("dark"), saved.dark);
  selectIfOffered($("light"), saved.light);
  selectIfOffered($("level"), saved.level);
  if (typeof saved.tc === "string" && saved.tc) $("tc").value = saved.tc;
  fillRuns(m.runs);
  if (saved.tab === "runs") showTab("runs");
  const game = loadGame();
  if (game && game.sides) {
    ui.resuming = true;
    send({t: "new", dark: game.sides[0], light: game.sides[1], tc: game.tc, level: game.level,
          position: game.start, moves: game.moves, clocks: game.clocks});
  } else if ($("dark").value === ui.human || $("light").value === ui.human) {
    newGame();
  }
}

function settings() {
  return {game: $("game").value, dark: $("dark").value, light: $("light").value, level: $("level").value,
          tc: $("tc").value};
}

function newGame(event) {
  if (event) event.preventDefault();
  const s = settings();
  saveSettings(s);
  send({t: "new", ...s});
}

// -- the board of the game being played ------------------------------------------------
function playerName(m, i) {
  if (m.sides[i] === ui.human) return "you";
  return m.level === ui.clockLevel ? m.sides[i] : `${m.sides[i]}, level ${m.level}`;
}

function onPosition(m) {
  ui.resuming = false;
  const fresh = m.game_no !== ui.gameNo;
  if (fresh) {   // another game: nothing of the last one's thinking stays
    ui.gameNo = m.game_no;
    clearThinking();
    $("game").value = m.state.game;   // the form shows this game's settings until changed
    selectIfOffered($("dark"), m.sides[0]);
    selectIfOffered($("light"), m.sides[1]);
    selectIfOffered($("level"), m.level);
    $("tc").value = m.tc;
  }
  ui.position = m;
  ui.options = []; ui.steps = []; ui.sel = []; ui.prefix = "-"; ui.targets = {};
  const board = $("board");
  showBoard(board, m.svg);
  board.dataset.ply = String(m.moves.length);
  board.dataset.gameNo = String(m.game_no);
  board.dataset.game = m.state.game;
  board.dataset.over = m.result ? "1" : "0";
  if (fresh || document.activeElement !== $("position")) $("position").value = m.state.position;
  $("stack").classList.toggle("flipped", m.flipped);
  const info = ui.gameInfo[m.state.game];
  fillCard($("clock-d"), "d", playerName(m, 0), m.state, info, m.result);
  fillCard($("clock-l"), "l", playerName(m, 1), m.state, info, m.result);
  fillMoves($("moves"), m.moves, m.movers || [], m.moves.length - 1, null);
  ui.clockBase = {clocks: m.clocks, running: m.running, at: performance.now()};
  drawClocks();
  showStatus(m, info);
  $("stop").disabled = !m.thinking;
  setUpLevelView(info);
  renderEntry();
  const forfeited = m.result && !RULE_ENDS.has(m.result.termination);
  saveGame(forfeited ? null : {start: m.start, moves: m.moves, sides: m.sides, tc: m.tc, level: m.level,
                                clocks: m.clocks, running: m.running, saved: Date.now()});
}

function showStatus(m, info) {
  let title, detail = "";
  if (m.result) {
    ({title, detail} = resultText(m.result, m.state, info));
  } else {
    const side = m.state.turn === "d" ? 0 : 1;
    const who = side === 0 ? "Dark" : "Light";
    const player = m.sides[side];
    title = `${who} to move` + (player === ui.human ? " (you)" : "");
    if (player !== ui.human) detail = `${player} is thinking`;
    if (m.state.game === "isaac") detail = [m.state.phase === "score" ? "scoring phase" : "placement phase", detail]
      .filter(Boolean).join(" · ");
  }
  $("status-title").textContent = title;
  $("status-detail").textContent = detail;
  $("status").dataset.result = m.result ? m.result.result : "";
}

function onSteps(m) {
  ui.options = m.options;
  ui.steps = m.steps;
  ui.prefix = m.prefix;
  ui.targets = m.targets || {};
  ui.sel = [];
  setUpLevelView(ui.position ? ui.gameInfo[ui.position.state.game] : null);
  renderEntry();
}

// -- move entry: clicks to steps -------------------------------------------------------------
function sameEnds(pair, got) {
  if (got.length === 1) return pair.includes(got[0]);
  return (got[0] === pair[0] && got[1] === pair[1]) || (got[0] === pair[1] && got[1] === pair[0]);
}

// An option fits the clicked cells when they name its cells pair by pair (segment ends, either order).
function fits(word, sel) {
  const cells = cellsOf(word);
  if (sel.length > cells.length) return false;
  for (let i = 0; i < sel.length; i += 2) {
    if (!sameEnds(cells.slice(i, i + 2), sel.slice(i, i + 2))) return false;
  }
  return true;
}

function candidates(sel) { return ui.options.filter((w) => cellsOf(w).length > 0 && fits(w, sel)); }

function nextCells(sel) {
  const out = new Set();
  for (const w of candidates(sel)) {
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

function boardSvg() { return $("board").querySelector("svg"); }

function clickBoard(event) {
  if (!ui.options.length) return;
  let cell = null, segment = null;
  for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!cell && el.dataset && el.dataset.cell) cell = el.dataset.cell;
  }
  const svg = boardSvg();
  const under = svg ? pieceAt(svg, event.clientX, event.clientY) : null;
  if (under) segment = under.dataset.segment;
  if (cell) {   // the mover's counter placed on one of the cells offered for it
    const scored = Object.keys(ui.targets).find((o) => ui.targets[o] === cell);
    if (scored) return enterStep(scored);
  }
  pick(cell, segment);
}

// A click on a piece picks its whole segment when an offered step starts there; otherwise the cell.
function pick(cell, segment) {
  const tries = [];
  const ends = segment ? cellsOf(segment) : [];
  if (ends.length === 2 && ui.sel.length % 2 === 0) tries.push(ui.sel.concat(ends));
  if (cell) tries.push(ui.sel.concat([cell]));
  if (ends.length === 2) tries.push(ends);
  if (cell) tries.push([cell]);
  const sel = tries.find((s) => candidates(s).length > 0);
  ui.sel = sel || [];
  const left = candidates(ui.sel);
  if (ui.sel.length && left.length === 1) return enterStep(left[0]);
  renderEntry();
}

function enterStep(word) {
  ui.sel = [];
  $("entry").dataset.ready = "0";
  send({t: "step", word});
}

function renderEntry() {
  const entry = $("entry");
  const ready = ui.options.length > 0;
  entry.dataset.ready = ready ? "1" : "0";
  entry.dataset.sel = ui.sel.join(" ");
  entry.dataset.options = ui.options.join(" ");
  entry.dataset.steps = ui.steps.join(" ");
  entry.dataset.targets = Object.entries(ui.targets).map(([o, c]) => `${o}=${c}`).join(" ");
  const shown = (ui.prefix === "-" ? "" : ui.prefix) + (ui.sel.length ? ` [${ui.sel.join(" ")}]` : "");
  $("entered").textContent = shown || "-";
  const choices = $("choices");
  choices.replaceChildren();
  const complete = ui.sel.length ? candidates(ui.sel).filter((w) => cellsOf(w).length === ui.sel.length) : [];
  const buttons = ui.options.filter((w) => cellsOf(w).length === 0).concat(complete);
  for (const w of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.word = w;
    b.textContent = label(w);
    if (ui.targets[w]) b.title = `the counter goes to ${ui.targets[w]}`;
    b.onclick = () => enterStep(w);
    choices.appendChild(b);
  }
  if (ready && Object.keys(ui.targets).length) {
    const hint = document.createElement("div");
    hint.className = "hint-text";
    hint.textContent = "Click the cell where your counter goes, or a score:";
    choices.prepend(hint);
  }
  $("unstep").disabled = ui.steps.length === 0;
  $("clear").disabled = ui.sel.length === 0;
  drawMarks();
}

function label(word) {
  const bare = word.replace(/\*$/, "");
  if (bare === "pass") return "pass";
  if (/^x\d$/.test(bare)) return `discard ${bare.slice(1)}`;
  if (/^\d+$/.test(bare)) return `score ${bare}`;
  return bare;
}

function drawMarks() {
  const svg = boardSvg();
  if (!svg) return;
  const entering = ui.options.length > 0;
  showLevel(svg, ui.view);
  drawPreview(svg, entering ? ui.prefix : "-");
  const side = ui.position ? ui.position.state.turn : "d";
  drawTargets(svg, entering ? ui.targets : {}, side);
  drawHints(svg, entering ? [...nextCells(ui.sel)] : [], entering ? ui.sel : []);
}

// -- FOUNDATIONS: which level is shown -----------------------------------------------------------
function setUpLevelView(info) {
  let top = 1;
  for (const w of ui.options) {
    const m = w.match(/\^(\d+)/);
    if (m) top = Math.max(top, Number(m[1]));
  }
  ui.view = levelButtons($("level-view"), boardSvg(), info, top, ui.view, (view) => {
    ui.view = view;
    setUpLevelView(info);
    drawMarks();
  });
}

// -- the engine's thinking -------------------------------------------------------------------------
function clearThinking() {
  $("think-engine").textContent = "No engine thinking";
  $("think-line").textContent = "";
  $("think-pv").textContent = "";
  $("thinking").dataset.game = "";
  $("stop").disabled = true;
}

function onThinking(m) {
  if (m.game_no !== ui.gameNo) return;   // a line of a game that is gone
  $("thinking").dataset.game = String(m.game_no);
  $("think-engine").textContent = `${m.engine} (${m.side === "d" ? "Dark" : "Light"})`;
  const parts = [];
  if (m.depth !== undefined) parts.push(`depth ${m.depth}`);
  if (m.score !== undefined) parts.push(`score ${m.score > 0 ? "+" : ""}${m.score}`);
  if (m.nodes !== undefined) parts.push(`nodes ${m.nodes}`);
  if (m.nps !== undefined) parts.push(`nps ${m.nps}`);
  if (m.time !== undefined) parts.push(`${(m.time / 1000).toFixed(1)} s`);
  if (m.string !== undefined) parts.push(m.string);
  $("think-line").textContent = parts.join("  ");
  const pv = m.pv || [];
  $("think-pv").textContent = pv.join(" ");
  const svg = boardSvg();
  if (m.final) {
    $("stop").disabled = true;
    if (svg) clearLayer(svg, "pv");
    return;
  }
  $("stop").disabled = false;
  if (svg) drawPv(svg, pv);
}

// -- clocks ----------------------------------------------------------------------------------
function formatMs(ms) {
  if (ms === null || ms === undefined) return "-";
  const tenths = Math.floor(Math.max(0, ms) / 100);   // whole tenths first: 59.97 s shows 0:59.9
  const m = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${m}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}

function currentClocks() {
  const base = ui.clockBase;
  if (!base) return null;
  const elapsed = performance.now() - base.at;
  return base.clocks.map((ms, i) => (ms !== null && base.running === i ? Math.max(0, Math.round(ms - elapsed)) : ms));
}

function drawClocks() {
  const clocks = currentClocks();
  if (!clocks) return;
  ["d", "l"].forEach((side, i) => {
    const el = $(`clock-${side}`);
    el.querySelector(".time").textContent = formatMs(clocks[i]);
    el.classList.toggle("running", ui.clockBase.running === i);
  });
}

function keepClocks() {   // on leaving the page: the running clock as it stands, for a reload
  const game = loadGame();
  const clocks = currentClocks();
  if (game && clocks && ui.position && game.moves.length === ui.position.moves.length) saveGame({...game, clocks});
}

// -- position strings ----------------------------------------------------------------------------
function setup(event) {
  event.preventDefault();
  send({t: "setup", position: $("position").value.trim()});
}

async function copyPosition() {
  const text = ui.position ? ui.position.state.position : $("position").value;
  $("position").value = text;
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    $("position").select();
    document.execCommand("copy");
  }
}

// -- wiring -----------------------------------------------------------------------------------------
function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  $("play").hidden = name !== "play";
  $("runs").hidden = name !== "runs";
  saveSettings({tab: name});
  if (name === "runs") send({t: "runs"});
  else drawMarks();   // hint rings need the board laid out
}

window.addEventListener("DOMContentLoaded", () => {
  $("new-form").addEventListener("submit", newGame);
  $("board").addEventListener("click", clickBoard);
  $("unstep").onclick = () => { ui.sel = []; send({t: "unstep"}); };
  $("clear").onclick = () => { ui.sel = []; renderEntry(); };
  $("stop").onclick = () => send({t: "stop"});
  $("setup-form").addEventListener("submit", setup);
  $("copy").onclick = copyPosition;
  $("level").onchange = () => { saveSettings({level: $("level").value}); send({t: "level", level: $("level").value}); };
  for (const id of ["game", "dark", "light", "tc"]) $(id).addEventListener("change", () => saveSettings(settings()));
  for (const t of document.querySelectorAll(".tab")) t.onclick = () => showTab(t.dataset.tab);
  initRuns(send, ui.gameInfo);
  window.addEventListener("pagehide", keepClocks);
  setInterval(drawClocks, 100);
  connect();
});
