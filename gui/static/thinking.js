// An engine's evaluation in words players read: its score (SPEC 9.5: 100 x (P(win) - P(loss)) for the
// side to move, +-100 only when proven) as each side's chances (a draw counting half), node counts
// and times with units, and lines of play whose moves never break inside a move.

const SIDE_NAME = {d: "Dark", l: "Light"};

/** Dark's chances in percent (a draw counts half) from a score for `side`, the side to move. */
export function darkChance(score, side) {
  const mover = Math.max(0, Math.min(100, (score + 100) / 2));
  return side === "l" ? 100 - mover : mover;
}

/** {dark: percent for the bar, text, proven} of a score (and its wdl) for the side to move. */
export function evaluation(score, wdl, side) {
  if (score === undefined || score === null) return null;
  const other = side === "d" ? "l" : "d";
  if (score >= 100) return {dark: side === "d" ? 100 : 0, text: `${SIDE_NAME[side]} wins (proven)`, proven: true};
  if (score <= -100) return {dark: side === "d" ? 0 : 100, text: `${SIDE_NAME[other]} wins (proven)`, proven: true};
  if (score === 0 && wdl && wdl[1] === 1000) return {dark: 50, text: "draw (proven)", proven: true};
  const dark = darkChance(score, side);
  const lead = dark >= 50 ? "d" : "l";
  const pct = Math.round(lead === "d" ? dark : 100 - dark);
  return {dark, text: `${SIDE_NAME[lead]}\u00a0${pct}%`, proven: false};
}

/** 1234 -> "1,234", 45678 -> "45.7k", 1234567 -> "1.23M". */
export function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 1 : 2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(n >= 1e5 ? 0 : 1)}k`;
  return n.toLocaleString("en");
}

/** The counts of a search with their units: "depth 9 · 1.2M nodes · 35k nodes/s · 2.4 s". */
export function searchText(m) {
  const parts = [];   // a number and its unit never part (no-break spaces)
  if (m.depth !== undefined) parts.push(`depth\u00a0${m.depth}${m.seldepth ? `/${m.seldepth}` : ""}`);
  if (m.nodes !== undefined) parts.push(`${count(m.nodes)}\u00a0nodes`);
  if (m.nps !== undefined) parts.push(`${count(m.nps)}\u00a0nodes/s`);
  if (m.time !== undefined) parts.push(`${(m.time / 1000).toFixed(1)}\u00a0s`);
  return parts.join(" · ");
}

/** Fill `el` with the moves of a line, each kept whole (a span that never wraps inside); the first
 *  marked with the side to move (after it, a side that passed may be skipped: no guess is drawn). */
export function fillLine(el, moves, firstSide) {
  const key = `${firstSide} ${(moves || []).join(" ")}`;
  if (el.dataset.line === key) return;   // unchanged: left as it is
  el.dataset.line = key;
  el.replaceChildren();
  (moves || []).forEach((move, i) => {
    if (i) el.append(" ");
    const span = document.createElement("span");
    span.className = "pv-move";
    span.textContent = move;
    if (i === 0 && firstSide) {
      span.dataset.side = firstSide;
      span.title = `${SIDE_NAME[firstSide]} plays ${move}`;
    }
    el.appendChild(span);
  });
}
