// Sharing a game: a link that opens it (at a chosen move) on the analysis board, and the server's
// exports (the referee's record line, PGN) shown in a box to copy.

const $ = (id) => document.getElementById(id);

/** A link to this page that opens `start` and `moves` on the analysis board at `ply`. */
export function gameLink(start, moves, ply) {
  const params = new URLSearchParams({position: start});
  if (moves && moves.length) params.set("moves", moves.join(" "));
  if (ply !== undefined && ply !== null && moves && ply !== moves.length) params.set("ply", String(ply));
  return `${location.origin}${location.pathname}#analysis?${params.toString()}`;
}

/** {position, moves, ply} of a link made by gameLink, or null when the address holds none. */
export function readLink(hash) {
  const text = (hash || "").replace(/^#/, "");
  if (!text.startsWith("analysis?")) return null;
  const params = new URLSearchParams(text.slice("analysis?".length));
  const position = params.get("position");
  if (!position) return null;
  const moves = (params.get("moves") || "").split(" ").filter(Boolean);
  const ply = params.has("ply") ? Number.parseInt(params.get("ply"), 10) : moves.length;
  return {position, moves, ply: Number.isFinite(ply) ? ply : moves.length};
}

/** Show `text` in an export box (`prefix`-export, -export-text, -export-copy), selected to copy. */
export function showExport(prefix, text, kind) {
  const box = $(`${prefix}-export`), area = $(`${prefix}-export-text`);
  box.hidden = false;
  box.dataset.kind = kind;
  area.value = text;
  area.rows = Math.min(12, Math.max(2, text.split("\n").length));
  area.focus();
  area.select();
}

export function wireExportCopy(prefix) {
  $(`${prefix}-export-copy`).onclick = async () => {
    const area = $(`${prefix}-export-text`);
    try {
      await navigator.clipboard.writeText(area.value);
    } catch (e) {
      area.select();
      document.execCommand("copy");
    }
  };
}

/** The export a board asked for (`wanted`: "record" or "pgn") from the server's `export` answer. */
export function exportText(m, wanted) {
  if (wanted === "pgn") return m.pgn;
  return m.record || `No record line: ${m.why}`;
}
