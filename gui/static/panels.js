// What the page shows beside the board: the players' cards (name, clock, measure, hand: each piece
// as long as it is, with its value written on it as on the board), the result in each game's own
// words, and the move list numbered by moves.

import {levelsDrawn} from "./board.js";

const SIDE_NAME = {d: "Dark", l: "Light"};

/** One player's measure as the game words it ("score 36", "12 in hand", "20 on the board"). */
export function measureText(info, score) {
  return info ? info.measure.replace("{}", String(score)) : String(score);
}

/** A hand as one bar per length, drawn as long as the piece with its value written on it (as the
 *  board's badges show values), and how many: [1]×5 [2]×4 ... `values`: {length: value}. */
export function fillHand(el, lengths, values) {
  el.replaceChildren();
  const counts = new Map();
  for (const n of lengths || []) counts.set(n, (counts.get(n) || 0) + 1);
  if (!counts.size) {
    el.textContent = "empty hand";
    return;
  }
  for (const [n, k] of [...counts.entries()].sort((a, b) => a[0] - b[0])) {
    const group = document.createElement("span");
    group.className = "hand-group";
    group.dataset.length = String(n);
    group.dataset.count = String(k);
    const bar = document.createElement("span");
    bar.className = "bar";
    const value = values && values[String(n)] !== undefined ? values[String(n)] : n;
    group.dataset.value = String(value);
    bar.style.width = `${n * 0.42 + 0.5}em`;
    bar.textContent = String(value);
    group.append(bar, k > 1 ? `×${k}` : "");
    group.title = `${k} piece${k > 1 ? "s" : ""} of length ${n}, value ${value}`;
    el.appendChild(group);
  }
}

/** Every player's card of the page from the one template: its side's name, and its clock where the
 *  card has `data-clock` (the game being played). */
export function buildCards() {
  const template = document.getElementById("card-template");
  for (const card of document.querySelectorAll(".card[data-side]")) {
    card.replaceChildren(template.content.cloneNode(true));
    card.querySelector(".who").textContent = SIDE_NAME[card.dataset.side];
    if (!("clock" in card.dataset)) card.querySelector(".time").remove();
  }
}

/** A player's card: `who` its display name, `state` the `state` answer (SPEC 9.11), `info` the game's words. */
export function fillCard(card, side, who, state, info, result) {
  card.querySelector(".name").textContent = who ? `(${who})` : "";
  const i = side === "d" ? 0 : 1;
  let badge = "";
  if (result) {
    if ((result.result === "1-0" && side === "d") || (result.result === "0-1" && side === "l")) badge = "winner";
  } else if (state) {
    if ((state.passes || "-").includes(side)) badge = "passed";
    else if (state.turn === side && !state.over) badge = "to move";
  }
  const badgeEl = card.querySelector(".badge");
  badgeEl.textContent = badge;
  badgeEl.dataset.kind = badge.replace(" ", "-");
  card.classList.toggle("to-move", badge === "to move");
  if (!state) return;
  let measure = measureText(info, state.scores[i]);
  if (state.game === "isaac") measure += state.phase === "score" ? " · scoring" : " · placing";
  card.querySelector(".measure").textContent = measure;
  fillHand(card.querySelector(".hand"), state.hands[i], info && info.values);
}

const RULE_ENDS = new Set(["both-passed", "score-limit"]);

/** {title, detail} of a finished game: who won, each side's measure in the game's words, and why. */
export function resultText(result, state, info) {
  const title = result.result === "1-0" ? "Dark wins" : result.result === "0-1" ? "Light wins" : "Draw";
  if (!RULE_ENDS.has(result.termination) || !state) {
    return {title, detail: `${result.termination || "ended"}: ${result.reason || ""}`};
  }
  const [d, l] = state.scores;
  let detail = `Dark ${measureText(info, d)} · Light ${measureText(info, l)}`;
  if (info && info.lower_score_wins) detail += " (the lower wins)";
  if (result.reason) detail += `. ${result.reason[0].toUpperCase()}${result.reason.slice(1)}.`;
  return {title, detail};
}

/** Rows of the move list: a number per move pair, Dark's move then Light's (a side that passed
 *  out and is skipped leaves its place empty). `movers` says who made each ply ("d" or "l"). */
export function moveRows(moves, movers) {
  const rows = [];
  let row = null;
  moves.forEach((move, ply) => {
    const side = movers[ply] || (ply % 2 ? "l" : "d");
    if (!row || side === "d" || row.l) {
      row = {n: rows.length + 1};
      rows.push(row);
    }
    row[side] = {move, ply};
  });
  return rows;
}

/** Fill a move list table; `current` is the ply shown (highlighted), `onPick(ply)` a click on a move,
 *  `notes[ply]` a text said about the move (what the engine thought), shown when the pointer rests on it. */
export function fillMoves(table, moves, movers, current, onPick, notes) {
  table.replaceChildren();
  const rows = moveRows(moves, movers);
  for (const row of rows) {
    const tr = table.insertRow();
    const th = document.createElement("th");
    th.textContent = `${row.n}.`;
    tr.appendChild(th);
    for (const side of ["d", "l"]) {
      const td = tr.insertCell();
      td.dataset.side = side;
      const entry = row[side];
      if (!entry) {   // skipped (it had passed), unless the list simply ends before Light's reply
        const skipped = side === "d" || row !== rows[rows.length - 1];
        td.textContent = skipped ? "\u2026" : "";
        td.className = "empty";
        continue;
      }
      td.textContent = entry.move;
      td.dataset.ply = String(entry.ply);
      td.title = `${SIDE_NAME[side]}, ply ${entry.ply + 1}` + (notes && notes[entry.ply] ? `: ${notes[entry.ply]}` : "");
      if (entry.ply === current) td.classList.add("current");
      if (onPick) td.onclick = () => onPick(entry.ply);
    }
  }
  keepInView(table);
}

/** Scroll the move list's own box (never the page) so the current move, else the last, shows. */
function keepInView(table) {
  const box = table.parentElement;
  const cell = table.querySelector("td.current") || (table.rows.length ? table.rows[table.rows.length - 1] : null);
  if (!box || !cell) return;
  const top = cell.offsetTop, bottom = top + cell.offsetHeight;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

/** FOUNDATIONS' *Show level* buttons in `box` (hidden in games of one level): "all", then 1 up to
 *  the highest level drawn or `top`; returns the view still possible; `onPick(view)` on a click. */
export function levelButtons(box, svg, info, top, view, onPick) {
  if (!info || !info.levels || !svg) {
    box.hidden = true;
    return "all";
  }
  top = Math.max(top, levelsDrawn(svg));
  if (view !== "all" && view > top) view = "all";
  box.hidden = false;
  const buttons = box.querySelector(".level-buttons");
  const views = ["all", ...Array.from({length: top}, (_, k) => k + 1)];
  if (buttons.children.length !== views.length) {   // kept while the levels stay: a click is never lost
    buttons.replaceChildren();
    for (const v of views) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.view = String(v);
      b.textContent = String(v);
      buttons.appendChild(b);
    }
  }
  for (const b of buttons.children) {
    b.classList.toggle("active", b.dataset.view === String(view));
    b.onclick = () => onPick(b.dataset.view === "all" ? "all" : Number(b.dataset.view));
  }
  return view;
}
