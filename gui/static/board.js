// Overlays on a board picture drawn by protocol/svg.py. All geometry comes from the picture itself:
// cells are `[data-cell]` rects, pieces `[data-segment]` groups carrying data-level and data-color.
// The page reads the notation's cell names and nothing of the rules.

export const SVGNS = "http://www.w3.org/2000/svg";
const CELL = /[a-j][0-9]/g;
const SEGMENT = /[a-j][0-9][a-j][0-9]/g;
const SLIDE = /([a-j][0-9][a-j][0-9])>([a-j][0-9][a-j][0-9]|off)/g;
const REMOVAL = /(?:^|[,:])x([a-j][0-9][a-j][0-9])/g;

export const cellsOf = (word) => word.match(CELL) || [];

/** Put a picture into `container`, scaled by CSS to the container's width. */
export function showBoard(container, svgText) {
  container.innerHTML = svgText || "";
  const svg = container.querySelector("svg");
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
  }
  return svg;
}

/** x, y, width, height of a cell in the picture's own units. */
export function cellBox(svg, cell) {
  const el = svg.querySelector(`[data-cell="${cell}"]`);
  if (!el) return null;
  const n = (k) => parseFloat(el.getAttribute(k));
  return {x: n("x"), y: n("y"), width: n("width"), height: n("height")};
}

/** The box covering a piece given by its two end cells (`c3c7`). */
export function segmentBox(svg, segment) {
  const [a, b] = cellsOf(segment);
  const p = cellBox(svg, a), q = cellBox(svg, b);
  if (!p || !q) return null;
  const x = Math.min(p.x, q.x), y = Math.min(p.y, q.y);
  return {x, y, width: Math.max(p.x, q.x) + p.width - x, height: Math.max(p.y, q.y) + p.height - y};
}

function layer(svg, name) {
  let g = svg.querySelector(`g[data-layer="${name}"]`);
  if (!g) {
    g = document.createElementNS(SVGNS, "g");
    g.dataset.layer = name;
    g.setAttribute("pointer-events", "none");
    svg.appendChild(g);
  }
  return g;
}

export function clearLayer(svg, name) {
  const g = svg.querySelector(`g[data-layer="${name}"]`);
  if (g) g.replaceChildren();
}

function add(parent, tag, attrs, text) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  parent.appendChild(el);
  return el;
}

function outline(parent, box, cls, inset = 2) {
  return add(parent, "rect", {x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset,
    height: box.height - 2 * inset, rx: 8, class: cls});
}

function cross(parent, box, cls) {
  const pad = 6;
  const d = `M${box.x + pad} ${box.y + pad}L${box.x + box.width - pad} ${box.y + box.height - pad}` +
            `M${box.x + box.width - pad} ${box.y + pad}L${box.x + pad} ${box.y + box.height - pad}`;
  return add(parent, "path", {d, class: cls});
}

export const piece = (svg, segment) => svg.querySelector(`[data-segment="${segment}"]`);

/** Draw the position as it stands after the steps entered so far (the prefix of `steps`): slid
 *  pieces moved to their new place (their start outlined), pieces slid off the board or removed
 *  struck out. The picture is the position before the move, so each step applies once. */
export function drawPreview(svg, prefix) {
  const g = layer(svg, "preview");
  g.replaceChildren();
  for (const el of svg.querySelectorAll("[data-segment].slid, [data-segment].gone, [data-segment].struck")) {
    el.classList.remove("slid", "gone", "struck");
    el.removeAttribute("transform");
    delete el.dataset.slidTo;
  }
  if (!prefix || prefix === "-") return;
  for (const [, from, to] of prefix.matchAll(SLIDE)) {
    const el = piece(svg, from), start = segmentBox(svg, from);
    if (!el || !start) continue;
    outline(g, start, "ghost");
    if (to === "off") {
      el.classList.add("gone");
      cross(g, start, "strike");
      continue;
    }
    const a = cellBox(svg, cellsOf(from)[0]), b = cellBox(svg, cellsOf(to)[0]);
    el.setAttribute("transform", `translate(${b.x - a.x} ${b.y - a.y})`);
    el.classList.add("slid");
    el.dataset.slidTo = to;
    outline(g, segmentBox(svg, to), "slid-outline");
  }
  for (const [, segment] of prefix.matchAll(REMOVAL)) {
    const el = piece(svg, segment), box = segmentBox(svg, segment);
    if (!el || !box) continue;
    el.classList.add("struck");
    outline(g, box, "strike-outline");
    cross(g, box, "strike");
  }
}

function visiblePieces(svg) {
  return [...svg.querySelectorAll("[data-segment]")].filter(
    (el) => !el.classList.contains("gone") && !el.classList.contains("above"));
}

/** The piece (as drawn now: slides previewed, hidden levels left out) under a point of the page. */
export function pieceAt(svg, x, y) {
  let found = null;
  for (const el of visiblePieces(svg)) {
    const r = el.getBoundingClientRect();
    if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) found = el;
  }
  return found;
}

function cellCentre(svg, cell) {
  const el = svg.querySelector(`[data-cell="${cell}"]`);
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** Cells that can be clicked next: a dot on an empty cell, a ring on a piece (its value stays readable). */
export function drawHints(svg, cells, picked) {
  const g = layer(svg, "hints");
  g.replaceChildren();
  for (const cell of picked) {
    const box = cellBox(svg, cell);
    if (box) add(g, "rect", {x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4,
      rx: 4, class: "picked", "data-mark": cell});
  }
  for (const cell of cells) {
    const box = cellBox(svg, cell);
    if (!box) continue;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const onPiece = pieceAt(svg, ...cellCentre(svg, cell)) !== null;
    add(g, "circle", onPiece
      ? {cx, cy, r: box.width * 0.42, class: "hint hint-ring", "data-mark": cell}
      : {cx, cy, r: box.width / 6, class: "hint hint-dot", "data-mark": cell});
  }
}

/** Where the mover's counter can go (ISAAC's new score): a faint counter with its score on each cell. */
export function drawTargets(svg, targets, side) {
  const g = layer(svg, "targets");
  g.replaceChildren();
  for (const [option, cell] of Object.entries(targets)) {
    const box = cellBox(svg, cell);
    if (!box) continue;
    const t = add(g, "g", {class: `target target-${side}`, "data-target": cell, "data-option": option});
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    add(t, "circle", {cx, cy, r: box.width * 0.36});
    add(t, "text", {x: cx, y: cy + 4.5}, option.replace(/\*$/, ""));
  }
}

/** The first moves of a principal variation: every piece they place, slide or remove, outlined whole. */
export function drawPv(svg, pv) {
  const g = layer(svg, "pv");
  g.replaceChildren();
  pv.slice(0, 2).forEach((move, i) => {
    for (const segment of move.match(SEGMENT) || []) {
      const box = segmentBox(svg, segment);
      if (box) outline(g, box, `pv${i + 1}`).dataset.pv = segment;
    }
  });
}

/** FOUNDATIONS: show one level, the levels below it dimmed and those above it faint, so every
 *  piece's value can be read; "all" draws the stack as it stands. */
export function showLevel(svg, view) {
  for (const el of svg.querySelectorAll("[data-segment][data-level]")) {
    const level = Number(el.dataset.level);
    el.classList.toggle("above", view !== "all" && level > view);
    el.classList.toggle("below", view !== "all" && level < view);
  }
}

export function levelsDrawn(svg) {
  let top = 1;
  for (const el of svg.querySelectorAll("[data-segment][data-level]")) top = Math.max(top, Number(el.dataset.level));
  return top;
}
