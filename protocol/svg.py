"""Board pictures as SVG, standard library only (in the spirit of python-chess's chess.svg).

``board_svg(game_or_state)`` draws the 10x10 board in either player's orientation,
pieces as bars (colour, length with one groove per cell, value in a badge),
FOUNDATIONS levels stacked (each level drawn a little narrower and raised, with a
shadow and a level tag), ISAAC's score counters, the last move (placed piece
outlined, ISAAC removal crossed out, HARI slides as arrows), highlighted cells
for move entry and each player's hand beside the board.

Output is deterministic: the same input gives the same bytes (fixed number
formatting, fixed order). A GUI maps clicks through the hooks every element
carries: cells have ``data-cell="c3"``, pieces ``data-segment``, ``data-level``
and ``data-color``; overlays ignore the pointer, so clicks reach the cells and
pieces beneath.

``board_parts`` returns the picture as a list of strings whose concatenation is
the SVG; each part is one natural unit (a piece, a counter, a hand), so a page
showing many boards (referee/results/report.py) stores each distinct part once.
The command line that draws positions and recorded games is ``isaac-svg`` (referee/pictures.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import game_from_position, registry
from .board import COLOR_NAME, DARK, FILES, LENGTHS, LIGHT, Segment, cell_name
from .game import Game
from .moves import HariMove, Move, Place, Remove
from .notation import parse_move
from .state import GameState

CELL = 40
"""Side of one cell in SVG user units (the viewBox scales to `size`)."""
PANEL = 204
"""Width of the side panel with the hands."""

_BOARD_FILL = ("#dcc59a", "#d3ba8c")
_GRID = "#a3885a"
_PIECE = {DARK: ("#2e3440", "#0f1217", "#f3ead7"), LIGHT: ("#fbf6ea", "#6b5a3c", "#2e3440")}
"""fill, stroke, badge text per colour."""
_ACCENT = "#e0a800"
_REMOVE = "#c0392b"
_SLIDE = "#1f6fbf"
_HIGHLIGHT = "#3d9be9"
_LEVEL_TAG = ("#000000", "#000000", "#7b3fa0", "#c0392b", "#1f7a4d", "#b35900", "#1f6fbf", "#8a6d00",
              "#5b5b5b")
"""Tag colour of level k (levels 2..8 used)."""
_FONT = 'font-family="DejaVu Sans,Verdana,Arial,sans-serif"'


# -- what a picture needs to know ------------------------------------------------------------

@dataclass(frozen=True)
class _Piece:
    color: int
    segment: Segment
    level: int = 1


@dataclass(frozen=True)
class _Snap:
    """What the picture reads of ``Game.state()``, with the outcome flattened."""

    game: str
    turn: int
    phase: str
    pieces: tuple[_Piece, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    passes: tuple[int, ...]
    scores: tuple[int, int]
    counters: tuple[int | None, int | None] | None
    result: str | None
    winner: int | None
    reason: str


def _from_state(st: GameState) -> _Snap:
    out = st.outcome
    pieces = tuple(sorted((_Piece(p.color, p.segment, p.level) for p in st.pieces),
                          key=lambda p: (p.level, p.segment.lo, p.segment.hi, p.color)))
    return _Snap(st.game, st.turn, str(st.phase), pieces,
                 (tuple(st.hands[0]), tuple(st.hands[1])), tuple(st.passes),
                 (st.scores[0], st.scores[1]), st.counters,
                 out.text if out else None, out.winner if out else None, out.reason if out else "")


def _snapshot(obj: Game | GameState | str) -> _Snap:
    if isinstance(obj, str):
        obj = game_from_position(obj)
    return _from_state(obj.state() if isinstance(obj, Game) else obj)


def _as_cell(cell: int | str) -> int:
    if isinstance(cell, int):
        if not 0 <= cell <= 99:
            raise ValueError(f"cell {cell} is off the board; cells are 0..99")
        return cell
    text = cell.strip().lower()
    if len(text) != 2 or text[0] not in FILES or not text[1].isdigit():
        raise ValueError(f"bad cell {cell!r}: expected a file a..j and a rank 0..9, like c3")
    return int(text[1]) * 10 + FILES.index(text[0])


def _as_move(game: str, move: Move | str | None) -> Move | None:
    if move is None or not isinstance(move, str):
        return move
    parsed: Move = parse_move(game, move)
    return parsed


# -- number formatting and geometry -----------------------------------------------------------

def _n(x: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros: the same value gives the same text."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _esc(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


@dataclass(frozen=True)
class _Frame:
    """Where cells go: the board's corner, margin and the viewer."""

    margin: float
    orientation: int

    def xy(self, cell: int) -> tuple[float, float]:
        """Top-left corner of `cell`."""
        rank, file = divmod(cell, 10)
        if self.orientation == LIGHT:
            rank, file = 9 - rank, 9 - file
        return self.margin + file * CELL, self.margin + (9 - rank) * CELL

    def center(self, cell: int) -> tuple[float, float]:
        x, y = self.xy(cell)
        return x + CELL / 2, y + CELL / 2

    def box(self, seg: Segment) -> tuple[float, float, float, float]:
        """x, y, width, height of the cells of `seg`."""
        (x1, y1), (x2, y2) = self.xy(seg.lo), self.xy(seg.hi)
        return min(x1, x2), min(y1, y2), abs(x2 - x1) + CELL, abs(y2 - y1) + CELL


# -- the layers -------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _cells(fr: _Frame) -> tuple[str, ...]:
    out = []
    for cell in range(100):
        x, y = fr.xy(cell)
        fill = _BOARD_FILL[(cell // 10 + cell % 10) % 2]
        out.append(f'<rect data-cell="{cell_name(cell)}" x="{_n(x)}" y="{_n(y)}" width="{CELL}" '
                   f'height="{CELL}" fill="{fill}" stroke="{_GRID}" stroke-width="1"/>')
    return ("<g>" + "".join(out) + "</g>",)


def _coordinates(fr: _Frame) -> str:
    """Notation names on the near edges (what moves are written in); the viewer's own frame
    (SPEC 1: Light's is Dark's turned 180 degrees) as digits on the far edges."""
    m, end = fr.margin, fr.margin + 10 * CELL
    out = [f'<g {_FONT} font-size="13" text-anchor="middle" fill="#5a4a30" pointer-events="none">']
    for k in range(10):
        file_cell = k if fr.orientation == DARK else 9 - k        # dark-frame file shown in column k
        rank_cell = k if fr.orientation == DARK else 9 - k        # dark-frame rank shown in row (from bottom) k
        x = m + k * CELL + CELL / 2
        y = end - k * CELL - CELL / 2
        out.append(f'<text x="{_n(x)}" y="{_n(end + 15)}">{FILES[file_cell]}</text>')
        out.append(f'<text x="{_n(m / 2)}" y="{_n(y + 5)}">{rank_cell}</text>')
        out.append(f'<text x="{_n(x)}" y="{_n(m - 6)}" fill-opacity="0.55" font-size="11">{k}</text>')
        out.append(f'<text x="{_n(end + m / 2)}" y="{_n(y + 4)}" fill-opacity="0.55" font-size="11">{k}</text>')
    out.append("</g>")
    return "".join(out)


def _piece(fr: _Frame, p: _Piece, stacked: bool) -> str:
    fill, stroke, ink = _PIECE[p.color]
    x, y, w, h = fr.box(p.segment)
    lift = 2.5 * (p.level - 1)
    inset = 4 + 2 * (p.level - 1)
    x, y, w, h = x + inset - lift, y + inset - lift, w - 2 * inset, h - 2 * inset
    seg = p.segment
    out = [f'<g data-segment="{seg.name}" data-level="{p.level}" data-color="{"dl"[p.color]}">']
    if p.level > 1:
        out.append(f'<rect x="{_n(x + 3)}" y="{_n(y + 3)}" width="{_n(w)}" height="{_n(h)}" rx="7" '
                   f'fill="#000000" fill-opacity="0.35"/>')
    out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="7" fill="{fill}" '
               f'stroke="{stroke}" stroke-width="1.5"/>')
    for k in range(1, seg.length):             # one groove between cells: the length reads at a glance
        if seg.horizontal:
            gx = x - inset + lift + k * CELL
            out.append(f'<line x1="{_n(gx)}" y1="{_n(y + 6)}" x2="{_n(gx)}" y2="{_n(y + h - 6)}" '
                       f'stroke="{stroke}" stroke-opacity="0.35"/>')
        else:
            gy = y - inset + lift + k * CELL
            out.append(f'<line x1="{_n(x + 6)}" y1="{_n(gy)}" x2="{_n(x + w - 6)}" y2="{_n(gy)}" '
                       f'stroke="{stroke}" stroke-opacity="0.35"/>')
    cx, cy = x + w / 2, y + h / 2
    if seg.length % 2 == 0:                    # badge in a cell's middle, not on a groove
        cx, cy = (cx - CELL / 2, cy) if seg.horizontal else (cx, cy - CELL / 2)
    out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="10" fill="{ink}" fill-opacity="0.14" '
               f'stroke="{ink}" stroke-opacity="0.6"/>')
    out.append(f'<text x="{_n(cx)}" y="{_n(cy + 5)}" {_FONT} font-size="14" font-weight="bold" '
               f'text-anchor="middle" fill="{ink}">{seg.value}</text>')
    if stacked:
        tag = _LEVEL_TAG[min(p.level, len(_LEVEL_TAG) - 1)]
        tx, ty = (x + 3, y + 3)
        if p.level > 1:
            out.append(f'<rect x="{_n(tx)}" y="{_n(ty)}" width="15" height="15" rx="3" fill="{tag}" '
                       f'stroke="#ffffff" stroke-width="1"/>')
            out.append(f'<text x="{_n(tx + 7.5)}" y="{_n(ty + 12)}" {_FONT} font-size="11" '
                       f'font-weight="bold" text-anchor="middle" fill="#ffffff">{p.level}</text>')
    out.append(f"<title>{COLOR_NAME[p.color]} {seg.name}{'^' + str(p.level) if p.level > 1 else ''}"
               f" (length {seg.length}, value {seg.value})</title></g>")
    return "".join(out)


def _counter(fr: _Frame, color: int, cell: int, score: int) -> str:
    fill, _stroke, ink = _PIECE[color]
    cx, cy = fr.center(cell)
    return (f'<g data-counter="{"dl"[color]}" pointer-events="none">'
            f'<circle cx="{_n(cx + 1.5)}" cy="{_n(cy + 2)}" r="15" fill="#000000" fill-opacity="0.35"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="15" fill="{fill}" stroke="{_ACCENT}" stroke-width="4"/>'
            f'<text x="{_n(cx)}" y="{_n(cy + 5)}" {_FONT} font-size="13" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}">{score}</text>'
            f"<title>{COLOR_NAME[color]}'s counter: score {score}</title></g>")


def _highlights(fr: _Frame, cells: Iterable[int]) -> str:
    out = ['<g pointer-events="none">']
    for cell in sorted(set(cells)):
        x, y = fr.xy(cell)
        out.append(f'<rect data-highlight="{cell_name(cell)}" x="{_n(x + 2)}" y="{_n(y + 2)}" '
                   f'width="{CELL - 4}" height="{CELL - 4}" rx="4" fill="{_HIGHLIGHT}" fill-opacity="0.38" '
                   f'stroke="{_HIGHLIGHT}" stroke-width="2.5"/>')
    out.append("</g>")
    return "".join(out)


def _arrow(x1: float, y1: float, x2: float, y2: float, color: str, width: float = 5) -> str:
    """A straight arrow with its head drawn as a polygon (no marker ids to clash in a page)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    head = 14.0
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * head * 0.55, ux * head * 0.55
    return (f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(bx)}" y2="{_n(by)}" stroke="{color}" '
            f'stroke-width="{_n(width)}" stroke-linecap="round" stroke-opacity="0.85"/>'
            f'<polygon points="{_n(x2)},{_n(y2)} {_n(bx + px)},{_n(by + py)} {_n(bx - px)},{_n(by - py)}" '
            f'fill="{color}" fill-opacity="0.85"/>')


def _outline(fr: _Frame, seg: Segment, color: str, dash: bool, level: int = 1) -> str:
    x, y, w, h = fr.box(seg)
    lift = 2.5 * (level - 1)
    x, y = x - lift, y - lift
    extra = ' stroke-dasharray="6 4"' if dash else ""
    return (f'<rect x="{_n(x + 2)}" y="{_n(y + 2)}" width="{_n(w - 4)}" height="{_n(h - 4)}" rx="8" '
            f'fill="none" stroke="{color}" stroke-width="3.5"{extra}/>')


def _off_point(fr: _Frame, seg: Segment) -> tuple[float, float]:
    """Where the arrow of a slide off the board ends: just past the board edge, on the side nearer
    to the piece (the notation does not say which way it left)."""
    row, file = divmod(seg.lo, 10)
    if seg.horizontal:
        toward_high = 9 - (file + seg.length - 1) <= file
        edge = row * 10 + (9 if toward_high else 0)
    else:
        toward_high = 9 - (row + seg.length - 1) <= row
        edge = (90 if toward_high else 0) + file
    ex, ey = fr.center(edge)
    cx, cy = fr.center(seg.hi if toward_high else seg.lo)
    dx, dy = ex - cx, ey - cy
    if (dx, dy) == (0, 0):                      # the piece touches that edge already
        ox, oy = fr.center(seg.lo if toward_high else seg.hi)
        dx, dy = cx - ox, cy - oy
    norm = (dx * dx + dy * dy) ** 0.5
    return ex + dx / norm * (CELL / 2 + 16), ey + dy / norm * (CELL / 2 + 16)


def _last_move_under(fr: _Frame, move: Move | None) -> str:
    """Tints under the pieces: where the placed piece lies, where slid pieces started."""
    out = []
    if isinstance(move, Place):
        x, y, w, h = fr.box(move.segment)
        out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{_ACCENT}" '
                   f'fill-opacity="0.45"/>')
    elif isinstance(move, HariMove):
        for slide in move.slides:
            x, y, w, h = fr.box(slide.start)
            out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{_SLIDE}" '
                       f'fill-opacity="0.15"/>')
        if move.place is not None:
            x, y, w, h = fr.box(move.place)
            out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{_ACCENT}" '
                       f'fill-opacity="0.45"/>')
    return '<g pointer-events="none">' + "".join(out) + "</g>" if out else ""


def _last_move_over(fr: _Frame, move: Move | None) -> str:
    """Outlines and arrows over the pieces."""
    out = []
    if isinstance(move, Place):
        out.append(_outline(fr, move.segment, _ACCENT, False, move.level))
    elif isinstance(move, Remove):
        x, y, w, h = fr.box(move.segment)
        out.append(_outline(fr, move.segment, _REMOVE, True))
        cx, cy = x + w / 2, y + h / 2
        out.append(f'<path d="M{_n(cx - 9)} {_n(cy - 9)}L{_n(cx + 9)} {_n(cy + 9)}M{_n(cx + 9)} {_n(cy - 9)}'
                   f'L{_n(cx - 9)} {_n(cy + 9)}" stroke="{_REMOVE}" stroke-width="4" stroke-linecap="round"/>')
    elif isinstance(move, HariMove):
        for slide in move.slides:
            out.append(_outline(fr, slide.start, _SLIDE, True))
        for slide in move.slides:
            x, y, w, h = fr.box(slide.start)
            sx, sy = x + w / 2, y + h / 2
            if slide.end is None:
                ex, ey = _off_point(fr, slide.start)
            else:
                x2, y2, w2, h2 = fr.box(slide.end)
                ex, ey = x2 + w2 / 2, y2 + h2 / 2
            out.append(_arrow(sx, sy, ex, ey, _SLIDE))
        if move.place is not None:
            out.append(_outline(fr, move.place, _ACCENT, False))
    return '<g pointer-events="none">' + "".join(out) + "</g>" if out else ""


# -- the side panel ---------------------------------------------------------------------------

def _hand(x: float, y: float, color: int, hand: Sequence[int]) -> str:
    """A hand as small bars, one row per length (empty rows skipped), each row led by its length."""
    fill, stroke, _ink = _PIECE[color]
    unit = 8
    out = [f'<g data-hand="{"dl"[color]}">']
    row = 0
    for n in LENGTHS:
        count = sum(1 for k in hand if k == n)
        if not count:
            continue
        by = y + row * 13
        out.append(f'<text x="{_n(x)}" y="{_n(by + 8.5)}" {_FONT} font-size="10" fill="#555555">{n}</text>')
        for i in range(count):
            bx = x + 10 + i * (n * unit + 4)
            out.append(f'<rect x="{_n(bx)}" y="{_n(by)}" width="{n * unit}" height="9" rx="3" fill="{fill}" '
                       f'stroke="{stroke}"/>')
        row += 1
    if not hand:
        out.append(f'<text x="{_n(x)}" y="{_n(y + 9)}" {_FONT} font-size="12" fill="#777777">'
                   f"empty hand</text>")
    out.append("</g>")
    return "".join(out)


def _measure(snap: _Snap, color: int) -> str:
    entry = registry.entry(snap.game)
    text = entry.measure.format(snap.scores[color])
    if entry.levels:
        level = max((p.level for p in snap.pieces if p.color == color), default=1)
        text += f" \u00b7 level {level}"
    return text


def _player_box(snap: _Snap, color: int, x: float, y: float, name: str | None) -> list[str]:
    fill, stroke, _ink = _PIECE[color]
    status = ""
    if snap.result is None:
        if color in snap.passes:
            status = "passed"
        elif snap.turn == color:
            status = "to move"
    elif snap.winner == color:
        status = "winner"
    title = COLOR_NAME[color] + (f" \u00b7 {name}" if name else "")
    room = 13 if status else 21
    if len(title) > room:
        title = title[:room - 1] + "\u2026"
    head = (f'<g {_FONT}><circle cx="{_n(x + 8)}" cy="{_n(y + 8)}" r="7" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.5"/><text x="{_n(x + 22)}" y="{_n(y + 13)}" font-size="13" font-weight="bold" '
            f'fill="#222222">{_esc(title)}</text>')
    if status:
        colour = {"to move": "#1f7a4d", "passed": "#8a6d00", "winner": "#b35900"}[status]
        head += (f'<text x="{_n(x + PANEL - 20)}" y="{_n(y + 13)}" font-size="12" font-weight="bold" '
                 f'text-anchor="end" fill="{colour}">{status}</text>')
    head += (f'<text x="{_n(x + 22)}" y="{_n(y + 31)}" font-size="12" fill="#444444">'
             f"{_measure(snap, color)}</text></g>")
    return [head, _hand(x + 4, y + 42, color, snap.hands[color])]


def _status_lines(snap: _Snap, move: Move | None) -> list[str]:
    lines = []
    if snap.result is not None:
        entry = registry.entry(snap.game)
        who = "draw" if snap.winner is None else f"{COLOR_NAME[snap.winner]} wins"
        lines.append(f"{snap.result} {who}" + (" (lower wins)" if entry.lower_score_wins else ""))
        lines += [f"{COLOR_NAME[c]} {entry.measure.format(snap.scores[c])}" for c in (0, 1)]
    elif registry.entry(snap.game).phase_and_scores:
        lines.append("placement phase" if snap.phase == "place" else "scoring phase")
    if move is not None:
        lines.append("last move:")
        if isinstance(move, HariMove):
            lines += [f"  {slide}," for slide in move.slides][:6]
            lines.append(f"  {move.place.name}" if move.place else f"  x{move.discard} (discard)")
        else:
            lines.append(f"  {move}")
    return lines


def _panel(snap: _Snap, fr: _Frame, height: float, move: Move | None,
           players: tuple[str, str] | None) -> list[str]:
    x = fr.margin * 2 + 10 * CELL + 4
    top, bottom = 1 - fr.orientation, fr.orientation
    parts = [f'<rect x="{_n(x)}" y="{_n(fr.margin)}" width="{PANEL - 8}" height="{_n(10 * CELL)}" rx="8" '
             f'fill="#f4efe4" stroke="#d8ccb3"/>']
    parts += _player_box(snap, top, x + 8, fr.margin + 8, players[top] if players else None)
    parts += _player_box(snap, bottom, x + 8, fr.margin + 10 * CELL - 118, players[bottom] if players else None)
    lines = _status_lines(snap, move)
    mid = fr.margin + 5 * CELL - 8 * len(lines) + 10
    text = []
    for i, line in enumerate(lines):
        bold = ' font-weight="bold"' if i == 0 and snap.result is not None else ""
        text.append(f'<text x="{_n(x + 12)}" y="{_n(mid + 16 * i)}"{bold}>{_esc(line)}</text>')
    if text:
        parts.append(f'<g {_FONT} font-size="13" fill="#222222" xml:space="preserve">' + "".join(text) + "</g>")
    return parts


# -- public API -------------------------------------------------------------------------------

def board_parts(state_or_game: Game | GameState | str, *, size: int | None = None, orientation: int = DARK,
                last_move: Move | str | None = None, highlights: Iterable[int | str] = (),
                arrows: Iterable[tuple[int | str, int | str]] = (), show_hands: bool = True,
                coordinates: bool = True, players: tuple[str, str] | None = None) -> list[str]:
    """The picture as parts whose concatenation is ``board_svg`` with the same arguments."""
    if orientation not in (DARK, LIGHT):
        raise ValueError(f"orientation must be DARK (0) or LIGHT (1), not {orientation!r}")
    snap = _snapshot(state_or_game)
    move = _as_move(snap.game, last_move)
    cells = [_as_cell(c) for c in highlights]
    pairs = [(_as_cell(a), _as_cell(b)) for a, b in arrows]
    fr = _Frame(24.0 if coordinates else 6.0, orientation)
    height = 2 * fr.margin + 10 * CELL
    width = height + (PANEL if show_hands else 0)
    size = int(height) if size is None else size
    if size <= 0:
        raise ValueError(f"size must be a positive number of pixels, not {size}")
    px_w = _n(size * width / height)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{px_w}" height="{size}" '
             f'viewBox="0 0 {_n(width)} {_n(height)}" data-game="{snap.game}" '
             f'data-orientation="{"dl"[orientation]}">'
             f'<rect width="{_n(width)}" height="{_n(height)}" fill="#fbf8f1"/>']
    parts += list(_cells(fr))
    if coordinates:
        parts.append(_coordinates(fr))
    parts.append(_last_move_under(fr, move))
    stacked = registry.entry(snap.game).levels
    parts += [_piece(fr, p, stacked) for p in snap.pieces]
    parts.append(_last_move_over(fr, move))
    if cells:
        parts.append(_highlights(fr, cells))
    if pairs:
        parts.append('<g pointer-events="none">' + "".join(
            _arrow(*fr.center(a), *fr.center(b), "#2a9d5c", 6) for a, b in pairs) + "</g>")
    if snap.counters is not None:
        for color in (DARK, LIGHT):
            cell = snap.counters[color]
            if cell is not None:
                parts.append(_counter(fr, color, cell, snap.scores[color]))
    if show_hands:
        parts += _panel(snap, fr, height, move, players)
    parts.append("</svg>")
    return [p for p in parts if p]


def board_svg(state_or_game: Game | GameState | str, *, size: int | None = None, orientation: int = DARK,
              last_move: Move | str | None = None, highlights: Iterable[int | str] = (),
              arrows: Iterable[tuple[int | str, int | str]] = (), show_hands: bool = True,
              coordinates: bool = True, players: tuple[str, str] | None = None) -> str:
    """An SVG picture of a position (a Game, its ``state()`` or a position string).

    `size` is the height in pixels (the width follows, wider with the hands panel);
    `orientation` DARK puts Dark's near edge at the bottom, LIGHT turns the board 180
    degrees; `last_move` (a Move or its notation) is marked; `highlights` are cells
    (``"c3"`` or 0..99) tinted for move entry; `arrows` are (from, to) cell pairs, for
    example a principal variation; `players` names the engines (Dark, Light).
    """
    return "".join(board_parts(state_or_game, size=size, orientation=orientation, last_move=last_move,
                               highlights=highlights, arrows=arrows, show_hands=show_hands,
                               coordinates=coordinates, players=players))
