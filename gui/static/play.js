// The Play tab: the game being played, its clocks, whose turn, the move being entered (entry.js),
// the thinking panel, Start and Takeback, set-up and export. A new game waits for the person's first
// move or Start; a reload resumes the game as it was (a finished one stays finished) with the move
// that was being entered.

import {clearLayer, drawLine, showBoard} from "./board.js";
import {Entry} from "./entry.js";
import {fillCard, fillMoves, resultText} from "./panels.js";
import {exportText, gameLink, showExport, wireExportCopy} from "./share.js";
import {loadGame, loadSettings, saveGame, saveSettings} from "./store.js";
import {evaluation, fillLine, searchText} from "./thinking.js";

const $ = (id) => document.getElementById(id);
const RULE_ENDS = new Set(["both-passed", "score-limit"]);

const ui = {
  send: null,
  openAnalysis: null,  // (start, moves, ply, extra) -> the analysis tab
  human: "human",
  gameInfo: {},
  clockLevel: "clock",
  levels: [],
  yardstick: "",
  position: null,      // the last "position" message
  gameNo: 0,
  clockBase: null,     // {clocks, running, at}
  resuming: false,
  restore: null,       // a half-entered move to enter again after a reload: {ply, steps, sel}
  exportWanted: "pgn",
  entry: null,
};

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

// -- settings ------------------------------------------------------------------------
function gameTitle(game) { return (ui.gameInfo[game] && ui.gameInfo[game].title) || String(game).toUpperCase(); }

function strengthOf(level, game) {
  const lv = ui.levels.find((l) => String(l.level) === String(level));
  return lv && lv.strength ? lv.strength[game] : null;
}

/** The Strength menu labelled for the chosen game: each level's measured score against the yardstick. */
function labelLevels() {
  const game = $("game").value;
  for (const o of $("level").options) {
    if (o.value === ui.clockLevel) { o.textContent = "full (by the clock)"; continue; }
    const lv = ui.levels.find((l) => String(l.level) === o.value);
    const s = strengthOf(o.value, game);
    o.textContent = s ? `${o.value} · ${Math.round(s.score)}% vs fastmc` : `${o.value} (${lv.movetime_ms / 1000} s)`;
  }
  describeLevel();
}

function describeLevel() {
  const level = $("level").value, game = $("game").value;
  if (level === ui.clockLevel) {
    $("level-words").textContent = "Full strength, thinking by the clock.";
    return;
  }
  const lv = ui.levels.find((l) => String(l.level) === level);
  const s = strengthOf(level, game);
  const time = lv ? `up to ${lv.movetime_ms / 1000} s a move` : "";
  $("level-words").textContent = s
    ? `Strength ${level} scored ${s.score.toFixed(0)}% (95%: ${s.low.toFixed(0)}-${s.high.toFixed(0)}%) against ` +
      `${ui.yardstick} in ${gameTitle(game)} (${s.games} games); ${time}.`
    : `Strength ${level}: ${time}.`;
}

function settings() {
  return {game: $("game").value, dark: $("dark").value, light: $("light").value, level: $("level").value,
          tc: $("tc").value};
}

function summarise() {
  const s = settings();
  const who = (side) => (side === ui.human ? "you" : side);
  const level = s.level === ui.clockLevel ? "full strength" : `strength ${s.level}`;
  $("settings-summary").textContent = `${gameTitle(s.game)} · ${who(s.dark)} vs ${who(s.light)} · ${level} · ` +
    `${$("tc-words").textContent || s.tc}`;
}

export function onHello(m) {
  ui.human = m.human;
  ui.clockLevel = m.clock_level;
  ui.levels = m.levels;
  ui.yardstick = m.yardstick;
  for (const g of m.games) option($("game"), g, gameTitle(g));
  for (const id of ["dark", "light"]) {
    option($(id), m.human, "Human");
    for (const e of m.engines) option($(id), e);
  }
  for (const lv of m.levels) option($("level"), lv.level);
  option($("level"), m.clock_level);
  $("dark").value = m.human;
  $("light").value = m.engines.includes("search") ? "search" : m.engines[0];
  $("level").value = String(m.level);
  $("tc").value = m.tc;
  $("tc-words").textContent = m.tc_words;
  const saved = loadSettings();
  selectIfOffered($("game"), saved.game);
  selectIfOffered($("dark"), saved.dark);
  selectIfOffered($("light"), saved.light);
  selectIfOffered($("level"), saved.level);
  if (typeof saved.tc === "string" && saved.tc && saved.clockUnit === "min") $("tc").value = saved.tc;
  labelLevels();
  summarise();
}

/** The game to show at start-up: the saved one (a reload), else a new one when a person plays. */
export function startUp() {
  const game = loadGame();
  if (game && game.sides && game.start) {
    ui.resuming = true;
    ui.restore = game.entry && game.entry.ply === (game.moves || []).length ? game.entry : null;
    ui.send({t: "new", dark: game.sides[0], light: game.sides[1], tc: game.tc, level: game.level,
             position: game.start, moves: game.moves, clocks: game.clocks, started: game.started,
             result: game.result});
  } else if ($("dark").value === ui.human || $("light").value === ui.human) {
    newGame();
  }
}

const WIDE = "(min-width: 881px)";

function newGame(event) {
  if (event) event.preventDefault();
  if (event && !window.matchMedia(WIDE).matches) $("settings").open = false;   // a phone: the game first
  const s = settings();
  saveSettings({...s, clockUnit: "min"});
  ui.send({t: "new", ...s});
}

export function onError(m) {
  $("error").textContent = m.text;
  if (ui.resuming) {   // the saved game cannot be resumed (engines changed, ...): start afresh
    ui.resuming = false;
    ui.restore = null;
    saveGame(null);
    newGame();
  }
}

// -- the game ------------------------------------------------------------------------------
function playerName(m, i) {
  if (m.sides[i] === ui.human) return "you";
  return m.level === ui.clockLevel ? m.sides[i] : `${m.sides[i]}, strength ${m.level}`;
}

export function onPosition(m) {
  ui.resuming = false;
  const fresh = m.game_no !== ui.gameNo;
  const moved = !fresh && ui.position && ui.position.moves.length !== m.moves.length;
  if (fresh) {   // another game: nothing of the last one's thinking stays; the form shows its settings
    ui.gameNo = m.game_no;
    $("game").value = m.state.game;
    selectIfOffered($("dark"), m.sides[0]);
    selectIfOffered($("light"), m.sides[1]);
    selectIfOffered($("level"), m.level);
    $("tc").value = m.tc;
    $("tc-words").textContent = m.tc_words;
    $("play-export").hidden = true;
    labelLevels();
    summarise();
  }
  if (fresh || moved || !m.thinking) clearThinking();   // the move is made: its thinking goes
  ui.position = m;
  const board = $("board");
  showBoard(board, m.svg);
  board.dataset.ply = String(m.moves.length);
  board.dataset.gameNo = String(m.game_no);
  board.dataset.game = m.state.game;
  board.dataset.over = m.result ? "1" : "0";
  board.dataset.started = m.started ? "1" : "0";
  if (fresh || document.activeElement !== $("position")) $("position").value = m.state.position;
  $("stack").classList.toggle("flipped", m.flipped);
  const info = ui.gameInfo[m.state.game];
  fillCard($("clock-d"), "d", playerName(m, 0), m.state, info, m.result);
  fillCard($("clock-l"), "l", playerName(m, 1), m.state, info, m.result);
  fillMoves($("moves"), m.moves, m.movers || [], m.moves.length - 1,
    (ply) => ui.openAnalysis(playSource(m, ply + 1)),
    (m.notes || []).map((note, ply) => noteText(note, (m.movers || [])[ply])));
  ui.clockBase = {clocks: m.clocks, running: m.running, at: performance.now()};
  drawClocks();
  showStatus(m, info);
  $("stop").disabled = !m.thinking;
  $("start").hidden = Boolean(m.started || m.result || !m.state || m.sides[m.state.turn === "d" ? 0 : 1] === ui.human);
  $("takeback").disabled = !m.can_takeback;
  ui.entry.newPosition(m.state.turn);
  save();
}

function showStatus(m, info) {
  let title, detail = "";
  if (m.result) {
    ({title, detail} = resultText(m.result, m.state, info));
  } else {
    const side = m.state.turn === "d" ? 0 : 1;
    const player = m.sides[side];
    title = `${side === 0 ? "Dark" : "Light"} to move` + (player === ui.human ? " (you)" : "");
    if (!m.started) {
      detail = player === ui.human ? "clocks start with your first move" : `press Start: ${player} plays first`;
    } else if (player !== ui.human) {
      detail = `${player} is thinking`;
    }
    if (m.state.game === "isaac") detail = [m.state.phase === "score" ? "scoring phase" : "placement phase", detail]
      .filter(Boolean).join(" · ");
  }
  $("status-title").textContent = title;
  $("status-detail").textContent = detail;
  $("status").dataset.result = m.result ? m.result.result : "";
}

/** The game as a source for the analysis board, at `ply`. */
function playSource(m, ply) {
  return {position: m.start, moves: m.moves, ply, sides: m.sides, tc: m.tc, flipped: m.flipped,
          result: m.result && !RULE_ENDS.has(m.result.termination) ? m.result : null,
          label: `${gameTitle(m.state.game)}: ${m.sides[0]} vs ${m.sides[1]} (the game on the Play tab)`};
}

/** What a reload needs: the game (a finished one too, so it is never started again), its clocks, and
 *  the move being entered. */
function save(clocks) {
  const m = ui.position;
  if (!m) return;
  const entry = ui.entry;
  saveGame({start: m.start, moves: m.moves, sides: m.sides, tc: m.tc, level: m.level,
            clocks: clocks || m.clocks, running: m.running, started: m.started,
            result: m.result && !RULE_ENDS.has(m.result.termination) ? m.result : null,
            entry: entry.options.length ? {ply: m.moves.length, steps: entry.steps, sel: entry.sel} : null,
            saved: Date.now()});
}

export function onSteps(m) {
  ui.entry.onSteps(m);
  const restore = ui.restore;
  if (restore && ui.position && restore.ply === ui.position.moves.length) {
    const done = m.steps.length;
    const same = m.steps.every((w, i) => w === restore.steps[i]);
    if (same && done < restore.steps.length) {
      ui.send({t: "step", word: restore.steps[done]});
      return;
    }
    ui.restore = null;
    if (same) ui.entry.restoreSelection(restore.sel);
  } else {
    ui.restore = null;
  }
  save();
}

/** An engine's last word on its move, for the move list: "depth 9 · Dark 61% · 1.2M nodes · 2.0 s". */
function noteText(note, side) {
  if (!note) return "";
  const ev = evaluation(note.score_cp, note.wdl, side);
  return [ev && ev.text, searchText(note), note.string].filter(Boolean).join(" · ");
}

// -- the engine's thinking -------------------------------------------------------------------------
function clearThinking() {
  $("think-engine").textContent = "No engine thinking";
  $("think-line").textContent = "";
  $("think-pv").replaceChildren();
  delete $("think-pv").dataset.line;
  $("thinking").dataset.game = "";
  $("stop").disabled = true;
  const svg = $("board").querySelector("svg");
  if (svg) clearLayer(svg, "pv");
}

export function onThinking(m) {
  if (m.game_no !== ui.gameNo || !ui.position || m.ply !== ui.position.moves.length) return;   // a line of a move made
  $("thinking").dataset.game = String(m.game_no);
  $("think-engine").textContent = `${m.engine} (${m.side === "d" ? "Dark" : "Light"})`;
  const ev = evaluation(m.score, m.wdl, m.side);
  $("think-line").textContent = [ev && ev.text, searchText(m), m.string].filter(Boolean).join(" · ");
  fillLine($("think-pv"), m.pv || [], m.side);
  const svg = $("board").querySelector("svg");
  if (m.final) {
    $("stop").disabled = true;
    return;
  }
  $("stop").disabled = false;
  if (svg) drawLine(svg, m.pv || [], 3);
}

// -- clocks ----------------------------------------------------------------------------------
function formatMs(ms) {
  if (ms === null || ms === undefined) return "-";
  const tenths = Math.floor(Math.max(0, ms) / 100);   // whole tenths first: 59.97 s shows 0:59.9
  const mins = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${mins}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
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
    const time = el.querySelector(".time");
    time.textContent = clocks[i] === null ? "∞" : formatMs(clocks[i]);
    time.classList.toggle("waiting", Boolean(ui.position && !ui.position.started));
    el.classList.toggle("running", ui.clockBase.running === i);
  });
}

function keepClocks() {   // on leaving the page: the running clock as it stands, for a reload
  const clocks = currentClocks();
  if (clocks && ui.position) save(clocks);
}

// -- position strings, export ----------------------------------------------------------------------
function setup(event) {
  event.preventDefault();
  ui.send({t: "setup", position: $("position").value});   // as typed: error columns count in it
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

export function onExport(m) {
  showExport("play", exportText(m, ui.exportWanted), ui.exportWanted);
}

function askExport(kind) {
  ui.exportWanted = kind;
  ui.send({t: "export", board: "play"});
}

export function redraw() { if (ui.entry) ui.entry.drawMarks(); }

export function initPlay(send, gameInfo, openAnalysis) {
  ui.send = send;
  ui.gameInfo = gameInfo;
  ui.openAnalysis = openAnalysis;
  ui.entry = new Entry({entry: "entry", entered: "entered", choices: "choices", unstep: "unstep", clear: "clear",
                        board: "board", levelView: "level-view"},
                       {send: (word) => send({t: "step", word}), unsend: () => send({t: "unstep"}),
                        info: () => (ui.position ? ui.gameInfo[ui.position.state.game] : null)});
  $("settings").open = window.matchMedia(WIDE).matches;
  $("new-form").addEventListener("submit", newGame);
  $("stop").onclick = () => send({t: "stop"});
  $("start").onclick = () => send({t: "start"});
  $("takeback").onclick = () => send({t: "takeback"});
  $("setup-form").addEventListener("submit", setup);
  $("copy").onclick = copyPosition;
  $("level").onchange = () => {
    saveSettings({level: $("level").value});
    describeLevel();
    summarise();
    send({t: "level", level: $("level").value});
  };
  $("game").addEventListener("change", labelLevels);
  $("tc").addEventListener("input", () => { $("tc-words").textContent = ""; });
  for (const id of ["game", "dark", "light", "tc"]) {
    $(id).addEventListener("change", () => { saveSettings({...settings(), clockUnit: "min"}); summarise(); });
  }
  $("to-analysis").onclick = () => ui.position && ui.openAnalysis(playSource(ui.position, ui.position.moves.length));
  $("play-link").onclick = () => {
    const m = ui.position;
    if (m) showExport("play", gameLink(m.start, m.moves, m.moves.length), "link");
  };
  $("play-record").onclick = () => askExport("record");
  $("play-pgn").onclick = () => askExport("pgn");
  wireExportCopy("play");
  window.addEventListener("pagehide", keepClocks);
  setInterval(drawClocks, 100);
}
