// isaac-gui page. It knows no rules: the server sends boards (SVG with data-cell / data-segment),
// game states and the legal next steps of a move being entered. This file connects, routes the
// server's messages to the tabs (play.js, analysis.js, runs.js) and switches tabs; a link made by
// the page (#analysis?position=...) opens its game on the analysis board.

import * as analysis from "./analysis.js";
import {buildCards} from "./panels.js";
import * as play from "./play.js";
import {fillRuns, initRuns, onReplay, onRun} from "./runs.js";
import {readLink} from "./share.js";
import {loadSettings, saveSettings} from "./store.js";

const $ = (id) => document.getElementById(id);
const TABS = ["play", "analysis", "runs"];

const app = {socket: null, gameInfo: {}};

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${proto}//${location.host}/ws`);
  app.socket = socket;
  const state = (text, kind) => {
    $("connection").textContent = text;
    $("connection").title = text;
    $("connection").dataset.state = kind;
  };
  socket.onopen = () => state("connected", "connected");
  socket.onclose = () => state("disconnected (reload to reconnect)", "closed");
  socket.onmessage = (event) => handle(JSON.parse(event.data));
}

function send(message) {
  if (app.socket && app.socket.readyState === WebSocket.OPEN) {
    $(message.t.startsWith("analysis_") ? "a-error" : "error").textContent = "";
    app.socket.send(JSON.stringify(message));
  }
}

function handle(m) {
  switch (m.t) {
    case "hello": return onHello(m);
    case "position": return play.onPosition(m);
    case "steps": return m.board === "analysis" ? analysis.onSteps(m) : play.onSteps(m);
    case "thinking": return play.onThinking(m);
    case "analysis_line": return analysis.onLine(m);
    case "analysis_position": return analysis.onPosition(m);
    case "analysis": return analysis.onAnalysis(m);
    case "export": return m.board === "analysis" ? analysis.onExport(m) : play.onExport(m);
    case "runs": return fillRuns(m.runs);
    case "run": return onRun(m);
    case "replay": return onReplay(m);
    case "error": return m.board === "analysis" ? analysis.onError(m) : play.onError(m);
  }
}

function onHello(m) {
  Object.assign(app.gameInfo, m.game_info || {});
  const saved = loadSettings();
  play.onHello(m);
  analysis.onHello(m, saved);
  fillRuns(m.runs);
  const link = readLink(location.hash);
  play.startUp();
  if (link) {
    openAnalysis({...link, label: "a game opened by its link"});
    history.replaceState(null, "", location.pathname);   // a reload then resumes, not reopens
  } else if (TABS.includes(saved.tab)) {
    showTab(saved.tab);
  }
}

function openAnalysis(source) {
  showTab("analysis");
  analysis.open(source);
}

function showTab(name) {
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const tab of TABS) $(tab).hidden = tab !== name;
  saveSettings({tab: name});
  if (name === "runs") send({t: "runs"});
  else if (name === "play") play.redraw();   // marks on pieces need the board laid out
  else analysis.redraw();
}

window.addEventListener("DOMContentLoaded", () => {
  buildCards();
  play.initPlay(send, app.gameInfo, openAnalysis);
  analysis.initAnalysis(send, app.gameInfo);
  initRuns(send, app.gameInfo, openAnalysis);
  for (const t of document.querySelectorAll(".tab")) t.onclick = () => showTab(t.dataset.tab);
  connect();
});
