"""The one grammar of isaac-arena: cells, segments, moves and position strings.

Written with pyparsing. Only the shape of the text is checked here (cells on
the board, a segment being a straight run of 3..7 cells, the fields of a
position string); whether a move is legal or a position possible is for the
game modules. Every error is a NotationError/PositionError carrying the text,
the 1-based column of the offending character and what was expected there.
"""

from __future__ import annotations

from functools import cache

import pyparsing as pp

from . import registry
from .board import DARK, LENGTHS, LIGHT, Segment, segment_at
from .errors import NotationError, PositionError
from .moves import PASS, HariMove, Move, Place, Remove, Slide
from .position import PieceEntry, PositionRecord, check_inventory, check_no_overlap
from .registry import GameEntry, MoveSyntax

MAX_TEXT = 4096
BLANKS = " \t"
"""Blanks around a move or between position fields: space and tab only (SPEC 6, 7, 9.1)."""


def _cell_value(tok: str) -> int:
    return (ord(tok[1]) - 48) * 10 + (ord(tok[0]) - 97)


def _make_segment(s: str, loc: int, toks: pp.ParseResults) -> Segment:
    a, b = toks[0], toks[1]
    seg = segment_at(a, b)
    if seg is None:
        raise pp.ParseFatalException(
            s, loc, f"{s[loc:loc + 4]!r} is not a piece: its ends must lie on one row or "
            "column, 3 to 7 cells long counting both ends"
        )
    return seg


def _lit(text: str) -> pp.ParserElement:
    return pp.Literal(text).leave_whitespace()


def _grammar() -> dict[str, pp.ParserElement]:
    """The grammar of the registered games: a move parser per game name, "<position>" and "<segment>"."""
    return _build(tuple(registry.entries()))


@cache
def _build(games: tuple[GameEntry, ...]) -> dict[str, pp.ParserElement]:
    """Build the grammar once per set of games, on first use (keeps `import protocol` cheap)."""
    cell = pp.Regex(r"[a-j][0-9]").leave_whitespace().set_name("cell (a0..j9)")
    cell.set_parse_action(lambda t: _cell_value(t[0]))
    segment = (cell + cell).leave_whitespace().set_name("segment (two cells, e.g. c3c7)")
    segment.set_parse_action(_make_segment)
    number = pp.Regex(r"[0-9]+").leave_whitespace().set_name("number")
    number.set_parse_action(lambda t: int(t[0]))
    end = pp.StringEnd().set_name("end of text")
    pass_ = pp.Keyword("pass").leave_whitespace().set_name("pass").set_parse_action(lambda: PASS)

    # ISAAC: c3c7 | xc3c7:36 | pass
    removal = (_lit("x").suppress() - segment - _lit(":").suppress() - number.copy().set_name("new score"))
    removal.set_parse_action(lambda t: Remove(t[0], t[1]))
    isaac_place = segment.copy().set_parse_action(lambda s, l, t: Place(_make_segment(s, l, t)))
    isaac_move = pass_ | removal | isaac_place

    # FOUNDATIONS: c3c7 | c3c7^2 | pass
    level = _lit("^").suppress() - number.copy().set_name("level")
    found_place = segment + pp.Optional(level, default=1)
    found_place.set_parse_action(_make_level_place)
    found_move = pass_ | found_place

    # HARI: [slide ,]* play ; slide = segment>segment | segment>off ; play = segment | xN
    off = pp.Keyword("off").leave_whitespace().set_parse_action(lambda: [None])
    slide = segment + _lit(">").suppress() - (off | segment).set_name("segment or 'off'")
    slide.set_parse_action(lambda s, l, t: (l, Slide(t[0], t[1])))
    discard = _lit("x").suppress() - pp.Regex(r"[0-9]+").leave_whitespace().set_name("length 3..7")
    discard.set_parse_action(_make_discard)
    place = segment.copy().add_parse_action(lambda s, l, t: (l, t[0]))
    step = (discard | slide | place).set_name("slide (c3c7>c4c8 or c3c7>off) or play (segment, or x and a length)")
    hari_turn = pp.DelimitedList(step, delim=_lit(","), allow_trailing_delim=False).leave_whitespace()
    hari_turn.set_parse_action(_make_hari_move)
    hari_move = pass_ | hari_turn

    # Position strings: fields separated by blanks.
    sp = pp.White(" \t").suppress().set_name("space between fields")
    dash = _lit("-").set_parse_action(lambda: [[]])
    piece = (segment + pp.Optional(level, default=1)).leave_whitespace()
    piece.set_parse_action(_make_piece_entry)
    piece_list = (dash | pp.Group(pp.DelimitedList(piece, delim=_lit(","), allow_trailing_delim=False).leave_whitespace())
                  ).set_name("pieces (segments separated by ',', or -)")
    pieces = (piece_list + _lit("/").suppress() - piece_list).set_name("pieces (dark/light)")
    hand = (dash | pp.Regex(r"[0-9]+").leave_whitespace()).set_name("hand (piece lengths, or -)")
    hands = (hand + _lit("/").suppress() - hand).set_name("hands (dark/light)")
    side = pp.Regex(r"[dl]").leave_whitespace().set_name("side to move (d or l)")
    passes = pp.Regex(r"-|[dl]{1,2}").leave_whitespace().set_name("passes (-, d, l, dl or ld)")
    phase = (pp.Keyword("place") | pp.Keyword("score")).leave_whitespace().set_name("phase (place or score)")
    scores = (number + _lit("/").suppress() - number).set_name("scores (dark/light)")

    def located(name: str, expr: pp.ParserElement) -> pp.ParserElement:
        return pp.Located(expr.copy()).set_results_name(name)

    common = (
        located("pieces", pieces) + sp - located("hands", hands) + sp
        - located("turn", side) + sp - located("passes", passes)
    )
    def tags(entries: list[GameEntry]) -> pp.ParserElement:
        pattern = "(" + "|".join(e.name for e in entries) + r")(?=[ \t])"
        return pp.Regex(pattern).leave_whitespace().set_results_name("game")

    layouts = []
    scored = [e for e in games if e.phase_and_scores]
    plain = [e for e in games if not e.phase_and_scores]
    if scored:
        layouts.append(tags(scored) + sp - common + sp - located("phase", phase) + sp
                       - located("scores", scores) + pp.Optional(sp) + end)
    if plain:
        layouts.append(tags(plain) + sp - common + pp.Optional(sp) + end)
    names = ", ".join(e.name for e in games)
    game_tag = pp.Regex("(" + "|".join(e.name for e in games) + r")(?=[ \t])").leave_whitespace()
    position = pp.FollowedBy(game_tag.set_name(f"game ({names}) and a space")) + pp.MatchFirst(layouts)
    syntax = {MoveSyntax.PLACE_REMOVE: isaac_move, MoveSyntax.PLACE_LEVEL: found_move,
              MoveSyntax.SLIDE_PLAY: hari_move}
    out = {"<position>": position, "<segment>": isaac_move + end}
    for e in games:  # one move parser per game, named for its error messages
        out[e.name] = syntax[e.move_syntax].copy().set_name(f"{e.title} move ({e.move_help})") + end
    for expr in out.values():
        expr.parse_with_tabs()  # columns count a tab as one character, as the text was received
    return out


def _make_level_place(s: str, loc: int, toks: pp.ParseResults) -> Place:
    seg, lev = toks[0], toks[1]
    if lev < 1:
        raise pp.ParseFatalException(s, loc, "levels start at 1")
    return Place(seg, lev)


def _make_piece_entry(s: str, loc: int, toks: pp.ParseResults) -> PieceEntry:
    seg, lev = toks[0], toks[1]
    if lev < 1:
        raise pp.ParseFatalException(s, loc, f"piece {seg.name}^{lev}: levels start at 1")
    return PieceEntry(seg, lev, loc)


def _make_discard(s: str, loc: int, toks: pp.ParseResults) -> list[tuple[int, int]]:
    n = int(toks[0])
    if n not in LENGTHS:
        raise pp.ParseFatalException(s, loc, f"no piece has length {n}; lengths are 3 to 7")
    return [(loc, n)]


def _make_hari_move(s: str, loc: int, toks: pp.ParseResults) -> HariMove:
    """Steps are (location, Slide | Segment | discard length); only the last may be a play."""
    steps = list(toks)
    for at, item in steps[:-1]:
        if not isinstance(item, Slide):
            raise pp.ParseFatalException(s, at, "the play (a placement or discard) must come last, after all slides")
    at, last = steps[-1]
    if isinstance(last, Slide):
        raise pp.ParseFatalException(s, at, "a turn must end with a play: a segment to place or x and a length")
    slides = tuple(item for _, item in steps[:-1])
    if isinstance(last, int):
        return HariMove(slides, None, last)
    return HariMove(slides, last, 0)


def _run(expr: pp.ParserElement, text: str, what: str,
         exc: type[NotationError] = NotationError) -> pp.ParseResults:
    if not isinstance(text, str):
        raise _err(exc, repr(text), 1, "expected text", what)
    if len(text) > MAX_TEXT:
        raise _err(exc, text[:60], MAX_TEXT + 1, f"longer than {MAX_TEXT} characters", what)
    stripped = text.strip(BLANKS)
    offset = len(text) - len(text.lstrip(BLANKS))
    if not stripped:
        raise _err(exc, text, 1, f"empty {what}", what)
    try:
        return expr.parse_string(stripped, parse_all=True)
    except pp.ParseBaseException as e:
        raise _err(exc, text, e.loc + 1 + offset, _message(e, stripped), what) from None


def _err(exc: type[NotationError], text: str, column: int, message: str, what: str) -> NotationError:
    if exc is PositionError:
        return PositionError(text, column, message)
    return NotationError(text, column, message, what)


def _message(e: pp.ParseBaseException, text: str) -> str:
    msg = e.msg
    found = text[e.loc:e.loc + 8]
    if msg.startswith("Expected "):
        msg = "expected " + msg[len("Expected "):]
    if "found" not in msg and not isinstance(e, pp.ParseFatalException):
        msg += f", found {found!r}" if found else ", found end of text"
    return msg


def parse_move(game: str, text: str) -> Move:
    """Parse one move of `game` into a Move object (not checked for legality)."""
    key = registry.entry(game).name
    move: Move = _run(_grammar()[key], text, "move")[0]
    return move


def parse_position(text: str) -> PositionRecord:
    """Parse a position string of any game into a PositionRecord (shape only)."""
    res = _run(_grammar()["<position>"], text, "position", PositionError)
    offset = len(text) - len(text.lstrip(BLANKS)) + 1
    cols = {name: res[name][0] + offset for name in ("pieces", "hands", "turn", "passes")}
    pieces = list(res["pieces"][1])
    hands_tok = list(res["hands"][1])
    hands = []
    for tok in hands_tok:
        counts = [0] * 8
        if isinstance(tok, str):
            for ch in tok:
                n = int(ch)
                if n not in LENGTHS:
                    raise PositionError(text, cols["hands"], f"no piece has length {n}; lengths are 3 to 7")
                counts[n] += 1
        hands.append(counts)
    dark_pieces = list(pieces[0]) if len(pieces) > 0 else []
    light_pieces = list(pieces[1]) if len(pieces) > 1 else []
    for entry in dark_pieces + light_pieces:
        entry.column += offset
    passes_tok = res["passes"][1][0]
    passes = () if passes_tok == "-" else tuple(DARK if c == "d" else LIGHT for c in passes_tok)
    if len(passes) == 2 and passes[0] == passes[1]:
        raise PositionError(text, cols["passes"], "a player can pass only once")
    rec = PositionRecord(
        game=res["game"],
        pieces=(dark_pieces, light_pieces),
        hands=(hands[0], hands[1]),
        turn=DARK if res["turn"][1][0] == "d" else LIGHT,
        passes=passes,
        text=text,
        columns=cols,
    )
    entry = registry.entry(rec.game)
    if entry.phase_and_scores:
        rec.phase = res["phase"][1][0]
        rec.scores = (res["scores"][1][0], res["scores"][1][1])
        rec.columns["phase"] = res["phase"][0] + offset
        rec.columns["scores"] = res["scores"][0] + offset
    if not entry.levels:
        for piece in dark_pieces + light_pieces:
            if piece.level != 1:
                having = " and ".join(e.title for e in registry.entries() if e.levels)
                raise PositionError(text, piece.column, f"levels exist only in {having}, not {entry.title}")
    return rec


def parse_segment(text: str) -> Segment:
    """Parse a bare segment such as 'c3c7' (either end first)."""
    move = _run(_grammar()["<segment>"], text, "segment")[0]
    if not isinstance(move, Place):
        raise NotationError(text, 1, "expected a segment such as c3c7", "segment")
    return move.segment


def parse_game_position(text: str, game: str) -> tuple[PositionRecord, list[list[int]]]:
    """parse_position plus what every game checks first: the game tag, the inventory, no overlaps.

    Returns the record and, per colour, the counts of pieces that have left the game.
    """
    rec = parse_position(text)
    if rec.game != game:
        lead = len(text) - len(text.lstrip(BLANKS)) + 1
        raise PositionError(text, lead, f"this is a {rec.game} position, not {game}")
    gone = check_inventory(rec)
    check_no_overlap(rec)
    return rec, gone
