// isaac-gui page. It knows no rules: the server sends boards (SVG with data-cell / data-segment),
// game states and the legal next steps of the move being entered; this file only maps clicks on
// cells to those offered steps, using the notation's cell names ([a-j][0-9]) and nothing else.
"use strict";

const $ = (id) => document.getElementById(id);
const CELL = /[a-j][0-9]/g;
const SVGNS = "http://www.w3.org/2000/svg";

const ui = {
  socket: null,
  human: "human",
  engines: [],
  position: null,      // last "position" message
  options: [],         // offered steps (when it is the person's turn)
  prefix: "-",
  steps: [],
  sel: [],             // cells clicked for the step being entered
  clockBase: null,     // {clocks, running, at}
  run: null,           // last "run" message
  replay: null,        // last "replay" message
  ply: 0,
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
    case "error": $("error").textContent = m.text; return;
  }
}

// -- setup and new games ----------------------------------------------------------
function option(select, value, label) {
  const o = document.createElement("option");
  o.value = value; o.textContent = label || value;
  select.appendChild(o);
}

function onHello(m) {
  ui.human = m.human;
  ui.engines = m.engines;
  for (const g of m.games) option($("game"), g, g.toUpperCase());
  for (const id of ["dark", "light"]) {
    const select = $(id);
    option(select, m.human, "Human");
    for (const e of m.engines) option(select, e);
  }
  $("dark").value = m.human;
  $("light").value = m.engines.includes("search") ? "search" : m.engines[0];
  $("tc").value = m.tc;
  fillRuns(m.runs);
}

function newGame(event) {
  if (event) event.preventDefault();
  send({t: "new", game: $("game").value, dark: $("dark").value, light: $("light").value, tc: $("tc").value});
}

// -- the board of the game being played ------------------------------------------------
function onPosition(m) {
  ui.position = m;
  ui.options = []; ui.steps = []; ui.sel = []; ui.prefix = "-";
  const board = $("board");
  board.innerHTML = m.svg;
  board.dataset.ply = String(m.moves.length);
  board.dataset.game = m.state.game;
  board.dataset.over = m.result ? "1" : "0";
  $("position").value = m.state.position;
  $("game").value = m.state.game;
  for (const [i, side] of ["d", "l"].entries()) {
    const name = m.sides[i] === ui.human ? "Human" : m.sides[i];
    document.querySelector(`#clock-${side} .name`).textContent = `(${name})`;
  }
  const list = $("moves");
  list.innerHTML = "";
  for (const move of m.moves) {
    const li = document.createElement("li");
    li.textContent = move;
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
  ui.clockBase = {clocks: m.clocks, running: m.running, at: performance.now()};
  drawClocks();
  let status;
  if (m.result) {
    status = `Game over: ${m.result.result} ${m.result.termination || ""} (${m.result.reason || ""})`;
  } else {
    const who = m.state.turn === "d" ? "Dark" : "Light";
    const player = m.sides[m.state.turn === "d" ? 0 : 1];
    status = `${who} to move` + (player === ui.human ? " (you)" : ` (${player} thinking)`);
  }
  const scores = m.state.scores ? `  scores ${m.state.scores[0]}-${m.state.scores[1]}` : "";
  $("status").textContent = status + scores;
  $("status").dataset.result = m.result ? m.result.result : "";
  renderEntry();
}

function onSteps(m) {
  ui.options = m.options;
  ui.steps = m.steps;
  ui.prefix = m.prefix;
  ui.sel = [];
  renderEntry();
}

// -- move entry: clicks to steps -------------------------------------------------------------
const cellsOf = (word) => word.match(CELL) || [];

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

function clickBoard(event) {
  if (!ui.options.length) return;
  let cell = null, segment = null;
  for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!cell && el.dataset && el.dataset.cell) cell = el.dataset.cell;
    if (!segment && el.dataset && el.dataset.segment) segment = el.dataset.segment;
  }
  if (!segment) {   // pieces drawn without pointer events: the last drawn piece under the click
    for (const el of $("board").querySelectorAll("[data-segment]")) {
      const r = el.getBoundingClientRect();
      if (event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom) {
        segment = el.dataset.segment;
      }
    }
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
  if (ui.sel.length && left.length === 1) return choose(left[0]);
  renderEntry();
}

function choose(word) {
  ui.sel = [];
  $("entry").dataset.ready = "0";
  send({t: "step", word: word});
}

function renderEntry() {
  const entry = $("entry");
  const ready = ui.options.length > 0;
  entry.dataset.ready = ready ? "1" : "0";
  entry.dataset.sel = ui.sel.join(" ");
  entry.dataset.options = ui.options.join(" ");
  entry.dataset.steps = ui.steps.join(" ");
  $("entered").textContent = (ui.prefix === "-" ? "" : ui.prefix) + (ui.sel.length ? ` [${ui.sel.join(" ")}]` : "") || "-";
  const choices = $("choices");
  choices.innerHTML = "";
  const complete = ui.sel.length ? candidates(ui.sel).filter((w) => cellsOf(w).length === ui.sel.length) : [];
  const buttons = ui.options.filter((w) => cellsOf(w).length === 0).concat(complete);
  for (const w of buttons) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.word = w;
    b.textContent = label(w);
    b.onclick = () => choose(w);
    choices.appendChild(b);
  }
  $("unstep").disabled = ui.steps.length === 0;
  drawMarks();
}

function label(word) {
  const bare = word.replace(/\*$/, "");
  if (bare === "pass") return "pass";
  if (/^x\d$/.test(bare)) return `discard ${bare.slice(1)}`;
  if (/^\d+$/.test(bare)) return `score ${bare}`;
  return bare;
}

// -- marks drawn over the board: targets, picked cells, the engine's PV ------------------------------
function cellBox(svg, cell) {
  const el = svg.querySelector(`[data-cell="${cell}"]`);
  return el ? el.getBBox() : null;
}

function mark(svg, cell, cls, shape) {
  const box = cellBox(svg, cell);
  if (!box) return;
  const el = document.createElementNS(SVGNS, shape);
  if (shape === "circle") {
    el.setAttribute("cx", box.x + box.width / 2); el.setAttribute("cy", box.y + box.height / 2);
    el.setAttribute("r", Math.min(box.width, box.height) / 5);
  } else {
    el.setAttribute("x", box.x + 2); el.setAttribute("y", box.y + 2);
    el.setAttribute("width", box.width - 4); el.setAttribute("height", box.height - 4);
  }
  el.setAttribute("class", cls);
  el.dataset.mark = cell;
  svg.appendChild(el);
}

function clearMarks(svg, classes) {
  for (const cls of classes) for (const el of svg.querySelectorAll(`.${cls}`)) el.remove();
}

function drawMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  clearMarks(svg, ["hint", "picked"]);
  if (!ui.options.length) return;
  for (const cell of ui.sel) mark(svg, cell, "picked", "rect");
  for (const cell of nextCells(ui.sel)) mark(svg, cell, "hint", "circle");
}

function onThinking(m) {
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
  const svg = $("board").querySelector("svg");
  if (!svg || m.final) return;
  clearMarks(svg, ["pv1", "pv2"]);
  pv.slice(0, 2).forEach((move, i) => {
    for (const cell of cellsOf(move)) mark(svg, cell, `pv${i + 1}`, "rect");
  });
}

// -- clocks ----------------------------------------------------------------------------------
function formatMs(ms) {
  if (ms === null || ms === undefined) return "-";
  const tenths = Math.floor(Math.max(0, ms) / 100);   // whole tenths first: 59.97 s shows 0:59.9
  const m = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${m}:${rest < 10 ? "0" : ""}${rest.toFixed(1)}`;
}

function drawClocks() {
  const base = ui.clockBase;
  if (!base) return;
  const elapsed = performance.now() - base.at;
  ["d", "l"].forEach((side, i) => {
    const el = $(`clock-${side}`);
    let ms = base.clocks[i];
    if (ms !== null && base.running === i) ms -= elapsed;
    el.querySelector(".time").textContent = formatMs(ms);
    el.classList.toggle("running", base.running === i);
  });
}

// -- position strings ----------------------------------------------------------------------------
function setup() { send({t: "setup", position: $("position").value.trim()}); }

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

// -- runs: replay and follow -----------------------------------------------------------------------
function fillRuns(runs) {
  const select = $("run");
  const current = select.value;
  select.innerHTML = "";
  option(select, "", runs.length ? "(choose a run)" : "(no runs: start with --runs DIR)");
  for (const r of runs) option(select, r);
  if (runs.includes(current)) select.value = current;
}

function openRun() {
  const name = $("run").value;
  if (name) send({t: "run", name: name, follow: $("follow").checked});
}

function onRun(m) {
  ui.run = m;
  const total = m.recorded ?? m.games.length;   // the list holds the latest games only
  $("run-info").textContent = `${m.mode || "run"} of ${m.game_type || "?"}: ${total} games recorded` +
    (m.finished ? " (finished)" : " (running or interrupted)");
  const table = $("standings");
  table.innerHTML = "<tr><th>#</th><th>Engine</th><th>Games</th><th>Points</th><th>W</th><th>D</th><th>L</th></tr>";
  m.standings.forEach((row, i) => {
    const tr = table.insertRow();
    for (const v of [i + 1, row.name, row.games, row.points, row.wins, row.draws, row.losses]) tr.insertCell().textContent = v;
  });
  const games = $("games");
  games.innerHTML = "<tr><th>Game</th><th>Dark</th><th>Light</th><th>Result</th><th>Plies</th></tr>";
  for (const g of m.games) {
    const tr = games.insertRow();
    tr.dataset.gameId = g.game_id;
    tr.title = `${g.termination}: ${g.reason}`;
    for (const v of [g.game_id + 1, g.dark, g.light, g.result, g.plies]) tr.insertCell().textContent = v;
    tr.onclick = () => send({t: "replay", name: m.name, game_id: g.game_id});
  }
  const following = $("follow").checked;
  if (following && m.live && m.live.length) {   // a game in progress: its board, move by move
    const g = m.live[0];
    ui.replay = null;
    const board = $("replay-board");
    board.innerHTML = g.svg;
    board.dataset.live = String(g.game_id);
    board.dataset.ply = String(g.plies);
    $("replay-info").textContent = `live: game ${g.game_id + 1}, ${g.dark} vs ${g.light}, ply ${g.plies}` +
      (g.last_move ? ` (${g.last_move})` : "") + (m.live.length > 1 ? `; ${m.live.length} games running` : "");
    $("replay-position").textContent = g.position;
    return;
  }
  $("replay-board").dataset.live = "";
  if (m.latest && (following || !ui.replay)) {
    if (following && m.games.length) send({t: "replay", name: m.name, game_id: m.latest.game_id, last: true});
    else $("replay-board").innerHTML = m.latest.svg;
  }
}

function onReplay(m) {
  ui.replay = m;
  $("ply").max = String(m.frames.length - 1);
  for (const tr of $("games").rows) tr.classList.toggle("current", tr.dataset.gameId === String(m.game_id));
  showPly($("follow").checked ? m.frames.length - 1 : 0);
}

function showPly(i) {
  const r = ui.replay;
  if (!r) return;
  ui.ply = Math.max(0, Math.min(r.frames.length - 1, i));
  const frame = r.frames[ui.ply];
  const board = $("replay-board");
  board.innerHTML = frame.svg;
  board.dataset.ply = String(ui.ply);
  $("ply").value = String(ui.ply);
  const moveText = frame.move ? `${ui.ply}. ${frame.by === "d" ? "Dark" : "Light"} ${frame.move}` : "start";
  const end = ui.ply === r.frames.length - 1 ? `  ${r.result} ${r.termination}: ${r.reason}` : "";
  $("replay-info").textContent = `game ${r.game_id + 1}, ${r.dark} vs ${r.light}: ${moveText}${end}`;
  $("replay-position").textContent = frame.position;
}

// -- wiring -----------------------------------------------------------------------------------------
function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  $("play").hidden = name !== "play";
  $("runs").hidden = name !== "runs";
  if (name === "runs") send({t: "runs"});
}

window.addEventListener("DOMContentLoaded", () => {
  $("new-form").addEventListener("submit", newGame);
  $("board").addEventListener("click", clickBoard);
  $("unstep").onclick = () => { ui.sel = []; send({t: "unstep"}); };
  $("clear").onclick = () => { ui.sel = []; renderEntry(); };
  $("stop").onclick = () => send({t: "stop"});
  $("setup").onclick = setup;
  $("copy").onclick = copyPosition;
  for (const t of document.querySelectorAll(".tab")) t.onclick = () => showTab(t.dataset.tab);
  $("run").onchange = openRun;
  $("follow").onchange = openRun;
  $("refresh").onclick = () => send({t: "runs"});
  $("first").onclick = () => showPly(0);
  $("prev").onclick = () => showPly(ui.ply - 1);
  $("next").onclick = () => showPly(ui.ply + 1);
  $("last").onclick = () => showPly(Infinity);
  $("ply").oninput = () => showPly(Number($("ply").value));
  document.addEventListener("keydown", (e) => {
    if ($("runs").hidden || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") showPly(ui.ply - 1);
    if (e.key === "ArrowRight") showPly(ui.ply + 1);
  });
  setInterval(drawClocks, 100);
  connect();
});
