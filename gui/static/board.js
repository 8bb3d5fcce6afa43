// Overlays on a board picture drawn by protocol/svg.py. All geometry comes from the picture itself:
// cells are `[data-cell]` rects, pieces `[data-segment]` groups carrying data-level and data-color.
// The page reads the notation's cell names and nothing of the rules.

export const SVGNS = "http://www.w3.org/2000/svg";
const CELL = /[a-j][0-9]/g;
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
  if (g) {
    g.replaceChildren();
    delete g.dataset.line;
  }
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

function centre(box) { return [box.x + box.width / 2, box.y + box.height / 2]; }

/** An arrow from (x1, y1) to (x2, y2), its head a path (no marker ids to clash in the page). */
function arrow(parent, x1, y1, x2, y2, cls) {
  const g = add(parent, "g", {class: cls});
  const dx = x2 - x1, dy = y2 - y1, length = Math.hypot(dx, dy) || 1;
  const ux = dx / length, uy = dy / length, head = 16;
  const bx = x2 - ux * head, by = y2 - uy * head, px = -uy * head * 0.55, py = ux * head * 0.55;
  add(g, "line", {x1, y1, x2: bx, y2: by});
  add(g, "path", {d: `M${x2} ${y2}L${bx + px} ${by + py}L${bx - px} ${by - py}Z`});
  return g;
}

/** Where a slide off the board points: past the edge nearer to the piece (the notation does not say
 *  which way it left), as the board pictures draw it. */
function offPoint(svg, segment) {
  const [a, b] = cellsOf(segment);
  const file = (c) => c.charCodeAt(0) - 97, rank = (c) => Number(c[1]);
  const horizontal = rank(a) === rank(b);
  const along = horizontal ? file : rank;
  const lo = Math.min(along(a), along(b)), hi = Math.max(along(a), along(b));
  const high = 9 - hi <= lo;
  const name = (k) => (horizontal ? String.fromCharCode(97 + k) + a[1] : a[0] + String(k));
  const edge = cellBox(svg, name(high ? 9 : 0)), end = cellBox(svg, name(high ? hi : lo));
  const other = cellBox(svg, name(high ? lo : hi));
  if (!edge || !end || !other) return null;
  const [ex, ey] = centre(edge), [cx, cy] = centre(end);
  let dx = ex - cx, dy = ey - cy;
  if (dx === 0 && dy === 0) { const [ox, oy] = centre(other); dx = cx - ox; dy = cy - oy; }
  const norm = Math.hypot(dx, dy) || 1;
  return [ex + dx / norm * (edge.width / 2 + 12), ey + dy / norm * (edge.height / 2 + 12)];
}

function number(parent, x, y, n, cls) {
  const g = add(parent, "g", {class: `pv-number ${cls}`});
  add(g, "circle", {cx: x, cy: y, r: 9});
  add(g, "text", {x, y: y + 4}, String(n));
}

/** The first moves of a line of play (a principal variation): every slide an arrow from where the
 *  piece was to where it goes (off the board: past the nearer edge), every placement its place
 *  outlined, every ISAAC removal crossed; each move numbered. Drawn on the position before the line,
 *  so a later move that slides a piece moved earlier starts from where the line left it. */
export function drawLine(svg, moves, max = 3) {
  const g = layer(svg, "pv");
  const key = (moves || []).slice(0, max).join(" ");
  if (g.dataset.line === key && g.childElementCount) return;   // unchanged: left as drawn (no flicker)
  g.dataset.line = key;
  g.replaceChildren();
  const moved = new Map();   // segment where a piece started -> where the line moved it
  (moves || []).slice(0, max).forEach((move, i) => {
    const cls = `pv${i + 1}`;
    let last = null;
    for (const part of move.split(",")) {
      const slide = part.match(/^([a-j][0-9][a-j][0-9])>([a-j][0-9][a-j][0-9]|off)$/);
      const removal = part.match(/^x([a-j][0-9][a-j][0-9])/);
      const place = part.match(/^([a-j][0-9][a-j][0-9])(\^\d)?$/);
      if (slide) {
        const from = moved.get(slide[1]) || slide[1];
        const start = segmentBox(svg, from);
        if (!start) continue;
        const [x1, y1] = centre(start);
        const end = slide[2] === "off" ? offPoint(svg, from) : centre(segmentBox(svg, slide[2]) || start);
        if (!end) continue;
        arrow(g, x1, y1, end[0], end[1], `pv-arrow ${cls}`).dataset.pv = `${slide[1]}>${slide[2]}`;
        if (slide[2] !== "off") moved.set(slide[1], slide[2]);
        last = end;
      } else if (removal) {
        const box = segmentBox(svg, removal[1]);
        if (!box) continue;
        cross(g, box, `pv-cross ${cls}`).dataset.pv = `x${removal[1]}`;
        last = centre(box);
      } else if (place) {
        const box = segmentBox(svg, place[1]);
        if (!box) continue;
        outline(g, box, `pv-place ${cls}`).dataset.pv = place[1];
        last = centre(box);
      }
    }
    if (last) number(g, last[0], last[1], i + 1, cls);
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
