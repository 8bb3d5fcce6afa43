// The Runs tab: a referee run's standings and games, a game replayed move by move (with its move
// list), and a run followed live. Games are numbered from 1, as the referee's console and
// report.html number them; `game_id` (from 0) stays the records' key.

import {showBoard, showLevel} from "./board.js";
import {fillCard, fillMoves, levelButtons, resultText} from "./panels.js";

const $ = (id) => document.getElementById(id);
const state = {send: null, gameInfo: {}, run: null, replay: null, ply: 0, view: "all", openAnalysis: null};

function option(select, value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label || value;
  select.appendChild(o);
}

export function fillRuns(runs) {
  const select = $("run");
  const current = select.value;
  select.replaceChildren();
  option(select, "", runs.length ? "(choose a run)" : "(no runs: start with --runs DIR)");
  for (const r of runs) option(select, r);
  if (runs.includes(current)) select.value = current;
}

function openRun() {
  const name = $("run").value;
  if (name) state.send({t: "run", name, follow: $("follow").checked});
}

function cell(tr, value) {
  tr.insertCell().textContent = value === null || value === undefined ? "" : String(value);
}

function showCards(frameState, dark, light, result) {
  const info = frameState ? state.gameInfo[frameState.game] : null;
  fillCard($("replay-d"), "d", dark, frameState, info, result);
  fillCard($("replay-l"), "l", light, frameState, info, result);
  showLevels(info);
}

function showLevels(info) {   // FOUNDATIONS: one level at a time, as on the Play tab
  const svg = $("replay-board").querySelector("svg");
  state.view = levelButtons($("replay-level-view"), svg, info, 1, state.view, (view) => {
    state.view = view;
    showLevels(info);
  });
  if (svg) showLevel(svg, state.view);
}

export function onRun(m) {
  state.run = m;
  const total = m.recorded ?? m.games.length;   // the list holds the latest games only
  $("run-info").textContent = `${m.name}: ${m.mode || "run"} of ${m.game_type || "?"}, ${total} games recorded` +
    (m.finished ? " (finished)" : " (running or interrupted)");
  const table = $("standings");
  table.innerHTML = "<tr><th>#</th><th>Engine</th><th>Games</th><th>Points</th><th>W</th><th>D</th><th>L</th></tr>";
  m.standings.forEach((row, i) => {
    const tr = table.insertRow();
    for (const v of [i + 1, row.name, row.games, row.points, row.wins, row.draws, row.losses]) cell(tr, v);
  });
  const games = $("games");
  games.innerHTML = "<tr><th>Game</th><th>Dark</th><th>Light</th><th>Result</th><th>Plies</th></tr>";
  for (const g of m.games) {
    const tr = games.insertRow();
    tr.dataset.gameId = g.game_id;
    tr.title = `${g.termination}: ${g.reason}`;
    for (const v of [g.game_id + 1, g.dark, g.light, g.result, g.plies]) cell(tr, v);
    tr.onclick = () => state.send({t: "replay", name: m.name, game_id: g.game_id});
    if (state.replay && state.replay.game_id === g.game_id) tr.classList.add("current");
  }
  const following = $("follow").checked;
  const board = $("replay-board");
  if (following && m.live && m.live.length) {   // a game in progress: its board, move by move
    const g = m.live[0];
    state.replay = null;
    $("replay-analyse").disabled = true;
    showBoard(board, g.svg);
    board.dataset.live = String(g.game_id);
    board.dataset.ply = String(g.plies);
    showCards(g.state, g.dark, g.light, null);
    $("replay-info").textContent = `live: game ${g.game_id + 1}, ${g.dark} vs ${g.light}, ply ${g.plies}` +
      (g.last_move ? ` (${g.last_move})` : "") + (m.live.length > 1 ? `; ${m.live.length} games running` : "");
    $("replay-position").textContent = g.position;
    $("replay-moves").replaceChildren();
    return;
  }
  board.dataset.live = "";
  if (m.latest && (following || !state.replay)) {
    if (following && m.games.length) state.send({t: "replay", name: m.name, game_id: m.latest.game_id});
    else showBoard(board, m.latest.svg);
  }
}

export function onReplay(m) {
  state.replay = m;
  $("replay-analyse").disabled = false;
  $("ply").max = String(m.frames.length - 1);
  for (const tr of $("games").rows) tr.classList.toggle("current", tr.dataset.gameId === String(m.game_id));
  showPly($("follow").checked ? m.frames.length - 1 : 0);
}

function showPly(i) {
  const r = state.replay;
  if (!r) return;
  state.ply = Math.max(0, Math.min(r.frames.length - 1, i));
  const frame = r.frames[state.ply];
  const board = $("replay-board");
  showBoard(board, frame.svg);
  board.dataset.ply = String(state.ply);
  $("ply").value = String(state.ply);
  const last = state.ply === r.frames.length - 1;
  const result = last && r.result ? {result: r.result, termination: r.termination, reason: r.reason} : null;
  showCards(frame.state, r.dark, r.light, result);
  const moveText = frame.move ? `ply ${state.ply}: ${frame.by === "d" ? "Dark" : "Light"} ${frame.move}` : "start";
  let end = "";
  if (result) {
    const words = resultText(result, frame.state, state.gameInfo[frame.state && frame.state.game]);
    end = ` · ${r.result} ${words.title}. ${words.detail}`;
  }
  $("replay-info").textContent = `game ${r.game_id + 1}, ${r.dark} vs ${r.light}: ${moveText}${end}`;
  $("replay-position").textContent = frame.position;
  const plies = r.frames.slice(1);
  fillMoves($("replay-moves"), plies.map((f) => f.move), plies.map((f) => f.by), state.ply - 1,
    (ply) => showPly(ply + 1));
}

/** The replayed game, at the ply shown, as a source for the analysis board. */
function replaySource() {
  const r = state.replay;
  const first = r.frames[0];
  const moves = r.frames.slice(1).map((f) => f.move);
  const rulesEnd = r.termination === "normal" || r.termination === "adjudication";
  return {position: first.position, moves, ply: state.ply, sides: [r.dark, r.light],
          result: rulesEnd || !r.result ? null : {result: r.result, termination: r.termination, reason: r.reason},
          label: `game ${r.game_id + 1} of ${$("run").value}: ${r.dark} vs ${r.light}`};
}

export function initRuns(send, gameInfo, openAnalysis) {
  state.send = send;
  state.gameInfo = gameInfo;
  state.openAnalysis = openAnalysis;
  $("replay-analyse").onclick = () => { if (state.replay) state.openAnalysis(replaySource()); };
  $("run").onchange = openRun;
  $("follow").onchange = openRun;
  $("refresh").onclick = () => send({t: "runs"});
  $("first").onclick = () => showPly(0);
  $("prev").onclick = () => showPly(state.ply - 1);
  $("next").onclick = () => showPly(state.ply + 1);
  $("last").onclick = () => showPly(Infinity);
  $("ply").oninput = () => showPly(Number($("ply").value));
  document.addEventListener("keydown", (e) => {
    if ($("runs").hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const to = {ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: Infinity}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    showPly(to);
  });
}
