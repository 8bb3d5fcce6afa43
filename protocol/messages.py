"""Engine-protocol messages (UCI conventions), parsed and formatted in one place.

The engine parses what a GUI or referee sends and formats what it answers;
the referee does the reverse with the same functions, so the two can never
disagree on the wire format. Parsers raise ProtocolError with the offending
word and its 1-based column; they never raise anything else on bad text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ArenaError

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
"""A whole number on the wire: ASCII digits, optional minus (int() alone also reads '1_0', '+5' and
non-ASCII digits such as '５', which no protocol peer means)."""


def whole_number(text: str) -> int:
    """int(text) for ASCII digits with an optional minus; ValueError otherwise."""
    if not _WHOLE_NUMBER.fullmatch(text):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)


MAX_LINE = 65536
"""Longest protocol line either side accepts; longer lines are rejected, not parsed."""

BLANKS = " \t"
"""The only characters that separate words on a protocol line (SPEC 9.1); any other is part of a word."""

MAX_MS = 2**31 - 1
"""Largest time in milliseconds on the wire (about 24.8 days): larger is an error, never an overflow."""
MAX_COUNT = 2**63 - 1
"""Largest count (nodes, info fields) on the wire."""
_GO_MAX = {"p1time": MAX_MS, "p2time": MAX_MS, "p1inc": MAX_MS, "p2inc": MAX_MS, "movetime": MAX_MS,
           "movestogo": 10_000, "depth": 1_000, "nodes": MAX_COUNT, "perft": 1_000}
"""Upper bound of each `go` number (SPEC 9.4)."""


class ProtocolError(ArenaError, ValueError):
    """A protocol line that does not say what its command requires."""

    def __init__(self, line: str, column: int, message: str):
        self.line = line
        self.column = column
        self.message = message
        shown = line if len(line) <= 80 else line[:77] + "..."
        super().__init__(f"{message} (at column {column} of {shown!r})")


def split_command(line: str) -> tuple[str, str]:
    """('go', 'depth 3') from 'go depth 3'; surrounding blanks are ignored."""
    text = line.strip(BLANKS)
    if not text:
        return "", ""
    parts = re.split(r"[ \t]+", text, maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def _tokens(line: str) -> list[tuple[str, int]]:
    """Words of a line with their 1-based columns."""
    out, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            break
        j = i
        while j < n and line[j] not in " \t":
            j += 1
        out.append((line[i:j], i + 1))
        i = j
    return out


def _int(line: str, tok: tuple[str, int] | None, what: str, minimum: int = 0,
         maximum: int = MAX_COUNT) -> int:
    if tok is None:
        raise ProtocolError(line, len(line) + 1, f"{what} needs a number after it")
    word, col = tok
    try:
        value = whole_number(word)
    except ValueError:
        raise ProtocolError(line, col, f"{what} needs a whole number, not {word!r}") from None
    if value < minimum:
        raise ProtocolError(line, col, f"{what} must be at least {minimum}, not {value}")
    if value > maximum:
        shown = word if len(word) <= 25 else f"a {len(word.lstrip('-'))}-digit number"
        raise ProtocolError(line, col, f"{what} must be at most {maximum}, not {shown}")
    return value


# -- go ---------------------------------------------------------------------

_GO_ALIASES = {"wtime": "p1time", "btime": "p2time", "winc": "p1inc", "binc": "p2inc"}
_GO_INTS = ("p1time", "p2time", "p1inc", "p2inc", "movestogo", "movetime", "depth", "nodes")


@dataclass
class GoCommand:
    """`go` parameters. Times in milliseconds; player 1 is Dark, player 2 Light."""

    p1time: int | None = None
    p2time: int | None = None
    p1inc: int | None = None
    p2inc: int | None = None
    movestogo: int | None = None
    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False
    perft: int | None = None

    def clock(self, color: int) -> tuple[int | None, int]:
        """(time left, increment) of the player of `color` (0 Dark, 1 Light)."""
        if color == 0:
            return self.p1time, self.p1inc or 0
        return self.p2time, self.p2inc or 0

    def format(self) -> str:
        if self.perft is not None:
            return f"go perft {self.perft}"
        words = ["go"]
        for name in _GO_INTS:
            value = getattr(self, name)
            if value is not None:
                words += [name, str(value)]
        if self.infinite:
            words.append("infinite")
        return " ".join(words)


def parse_go(line: str) -> GoCommand:
    """Parse a whole `go ...` line (or just its arguments)."""
    toks = _tokens(line)
    if toks and toks[0][0] == "go":
        toks = toks[1:]
    cmd = GoCommand()
    seen: set[str] = set()
    i = 0
    while i < len(toks):
        word, col = toks[i]
        key = _GO_ALIASES.get(word, word)
        if key in seen:
            raise ProtocolError(line, col, f"go: {word!r} given twice")
        seen.add(key)
        if key == "infinite":
            cmd.infinite = True
            i += 1
        elif key == "perft":
            cmd.perft = _int(line, toks[i + 1] if i + 1 < len(toks) else None, "go perft", 0, _GO_MAX["perft"])
            i += 2
        elif key in _GO_INTS:
            minimum = 1 if key in ("movestogo", "depth", "nodes") else 0
            setattr(cmd, key, _int(line, toks[i + 1] if i + 1 < len(toks) else None, word, minimum, _GO_MAX[key]))
            i += 2
        elif key == "ponder":
            raise ProtocolError(line, col, "go: pondering is not supported")
        else:
            raise ProtocolError(line, col, f"go: unknown parameter {word!r}")
    if cmd.perft is not None and len(seen) > 1:
        raise ProtocolError(line, 1, "go perft takes no other parameters")
    return cmd


# -- position ---------------------------------------------------------------

@dataclass
class PositionCommand:
    """`position startpos|fen <position string> [moves m1 m2 ...]`; fen None means startpos."""

    fen: str | None = None
    moves: list[str] = field(default_factory=list)

    def format(self) -> str:
        head = "position startpos" if self.fen is None else f"position fen {self.fen}"
        return head + (" moves " + " ".join(self.moves) if self.moves else "")


def parse_position_command(line: str) -> PositionCommand:
    toks = _tokens(line)
    if toks and toks[0][0] == "position":
        toks = toks[1:]
    if not toks:
        raise ProtocolError(line, len(line) + 1, "position needs 'startpos' or 'fen <position string>'")
    word, col = toks[0]
    rest = toks[1:]
    split = next((k for k, (w, _) in enumerate(rest) if w == "moves"), None)
    head, moves = (rest, []) if split is None else (rest[:split], rest[split + 1:])
    if word == "startpos":
        if head:
            raise ProtocolError(line, head[0][1], f"expected 'moves' after startpos, found {head[0][0]!r}")
        fen = None
    elif word == "fen":
        if not head:
            raise ProtocolError(line, col + 3, "position fen needs a position string")
        start, stop = head[0][1] - 1, head[-1][1] - 1 + len(head[-1][0])
        fen = line[start:stop]
    else:
        raise ProtocolError(line, col, f"expected 'startpos' or 'fen', found {word!r}")
    return PositionCommand(fen, [w for w, _ in moves])


def move_columns(line: str) -> list[int]:
    """1-based column of each move after 'moves' in a position line (for error messages)."""
    toks = _tokens(line)
    idx = next((k for k, (w, _) in enumerate(toks) if w == "moves"), None)
    return [] if idx is None else [c for _, c in toks[idx + 1:]]


# -- setoption / option -----------------------------------------------------

@dataclass
class SetOption:
    name: str
    value: str | None = None

    def format(self) -> str:
        return f"setoption name {self.name}" + ("" if self.value is None else f" value {self.value}")


def parse_setoption(line: str) -> SetOption:
    toks = _tokens(line)
    if toks and toks[0][0] == "setoption":
        toks = toks[1:]
    if not toks or toks[0][0] != "name":
        col = toks[0][1] if toks else len(line) + 1
        raise ProtocolError(line, col, "setoption needs 'name <option>'")
    idx = next((k for k, (w, _) in enumerate(toks) if w == "value"), None)
    name_toks = toks[1:idx] if idx is not None else toks[1:]
    if not name_toks:
        raise ProtocolError(line, toks[0][1] + 4, "setoption name needs an option name")
    name = " ".join(w for w, _ in name_toks)
    value = None
    if idx is not None:
        value_toks = toks[idx + 1:]
        if not value_toks:
            raise ProtocolError(line, toks[idx][1] + 5, f"setoption {name}: 'value' needs a value after it")
        start = value_toks[0][1] - 1
        value = line[start:].strip(BLANKS)
    return SetOption(name, value)


OPTION_TYPES = ("check", "spin", "combo", "button", "string")


@dataclass
class OptionSpec:
    """One `option name ... type ...` line: what an engine lets a user set, and its bounds."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: list[str] = field(default_factory=list)

    def format(self) -> str:
        words = [f"option name {self.name} type {self.type}"]
        if self.default is not None:
            words.append(f"default {self.default}")
        if self.min is not None:
            words.append(f"min {self.min}")
        if self.max is not None:
            words.append(f"max {self.max}")
        words += [f"var {v}" for v in self.vars]
        return " ".join(words)

    def coerce(self, value: str | None) -> OptionValue:
        """The typed value a `setoption` sets, or ProtocolError saying what is allowed."""
        line = SetOption(self.name, value).format()
        col = len(f"setoption name {self.name} value ") + 1
        if self.type == "button":
            return True
        if value is None:
            raise ProtocolError(line, len(line) + 1, f"option {self.name} needs a value")
        if self.type == "check":
            if value.lower() not in ("true", "false"):
                raise ProtocolError(line, col, f"option {self.name} is true or false, not {value!r}")
            return value.lower() == "true"
        if self.type == "spin":
            try:
                number = whole_number(value)
            except ValueError:
                raise ProtocolError(line, col, f"option {self.name} needs a whole number, not {value!r}") from None
            if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
                raise ProtocolError(line, col, f"option {self.name} must be in {self.min}..{self.max}, not {number}")
            return number
        if self.type == "combo":
            for v in self.vars:
                if v.lower() == value.lower():
                    return v
            raise ProtocolError(line, col, f"option {self.name} is one of {', '.join(self.vars)}, not {value!r}")
        return value


OptionValue = bool | int | str
"""A typed option value: check and button are bool, spin int, combo and string str."""

_OPTION_KEYS = ("name", "type", "default", "min", "max", "var")


def parse_option_line(line: str) -> OptionSpec:
    """Parse `option name <n> type <t> [default <d>] [min <m>] [max <m>] [var <v>]*`."""
    toks = _tokens(line)
    if toks and toks[0][0] == "option":
        toks = toks[1:]
    parts: list[tuple[str, list[str], int]] = []
    for word, col in toks:
        if word in _OPTION_KEYS:
            parts.append((word, [], col))
        elif parts:
            parts[-1][1].append(word)
        else:
            raise ProtocolError(line, col, f"option: expected 'name', found {word!r}")
    fields: dict[str, str] = {}
    columns: dict[str, int] = {}
    vars_: list[str] = []
    for key, words, col in parts:
        value = " ".join(words)
        if key == "var":
            vars_.append(value)
        elif key in fields:
            raise ProtocolError(line, col, f"option: {key!r} given twice")
        else:
            fields[key] = value
            columns[key] = col
    if not fields.get("name"):
        raise ProtocolError(line, 1, "option line has no name")
    kind = fields.get("type", "")
    if kind not in OPTION_TYPES:
        raise ProtocolError(line, 1, f"option {fields['name']}: unknown type {kind!r}")

    def number(key: str) -> int | None:
        if key not in fields:
            return None
        try:
            return whole_number(fields[key])
        except ValueError:
            raise ProtocolError(line, columns[key], f"option {fields['name']}: {key} is not a whole number "
                                f"(ASCII digits), found {fields[key]!r}") from None

    default = fields.get("default")
    if kind == "string" and default == "<empty>":
        default = ""
    return OptionSpec(fields["name"], kind, default, number("min"), number("max"), vars_)


# -- info / bestmove / id ---------------------------------------------------

_INFO_INTS = ("depth", "seldepth", "time", "nodes", "nps", "visits", "rollouts", "multipv", "hashfull")


@dataclass
class Info:
    """An `info` line. score_cp is from the side to move's view, in hundredths of a game point;
    wdl is (win, draw, loss) per mille; visits/rollouts are for tree search."""

    depth: int | None = None
    seldepth: int | None = None
    time: int | None = None
    nodes: int | None = None
    nps: int | None = None
    visits: int | None = None
    rollouts: int | None = None
    multipv: int | None = None
    hashfull: int | None = None
    score_cp: int | None = None
    wdl: tuple[int, int, int] | None = None
    pv: list[str] = field(default_factory=list)
    string: str | None = None

    def format(self) -> str:
        words = ["info"]
        for name in _INFO_INTS:
            value = getattr(self, name)
            if value is not None:
                words += [name, str(value)]
        if self.score_cp is not None:
            words += ["score", "cp", str(self.score_cp)]
        if self.wdl is not None:
            words += ["wdl", *map(str, self.wdl)]
        if self.pv:
            words += ["pv", *self.pv]
        if self.string is not None:
            words += ["string", self.string]
        return " ".join(words)


def info_string(text: str) -> str:
    """`info string <text>` on one line, whatever `text` holds."""
    return "info string " + " ".join(str(text).split())


def parse_info(line: str) -> Info:
    """Parse an `info` line leniently: unknown keys are skipped, as UCI asks; bad numbers are errors."""
    toks = _tokens(line)
    if toks and toks[0][0] == "info":
        toks = toks[1:]
    info = Info()
    i = 0
    while i < len(toks):
        word, col = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if word == "string":
            info.string = line[col - 1 + len("string"):].strip(BLANKS) if nxt else ""
            break
        if word == "pv":
            j = i + 1
            while j < len(toks) and toks[j][0] not in _INFO_INTS + ("score", "wdl", "string"):
                j += 1
            info.pv = [w for w, _ in toks[i + 1:j]]
            i = j
        elif word in _INFO_INTS:
            setattr(info, word, _int(line, nxt, f"info {word}", 0))
            i += 2
        elif word == "score":
            kind = nxt[0] if nxt else None
            if kind not in ("cp", "mate"):
                raise ProtocolError(line, col, "info score needs 'cp <n>'")
            value = _int(line, toks[i + 2] if i + 2 < len(toks) else None, f"info score {kind}", -10**9, 10**9)
            if kind == "cp":   # 'mate <n>' (moves to mate) is not a centipawn score: skipped
                info.score_cp = value
            i += 3
            while i < len(toks) and toks[i][0] in ("lowerbound", "upperbound"):
                i += 1
        elif word == "wdl":
            vals = [_int(line, toks[i + k] if i + k < len(toks) else None, "info wdl", 0) for k in (1, 2, 3)]
            info.wdl = (vals[0], vals[1], vals[2])
            i += 4
        else:
            i += 1
    return info


def format_bestmove(move: object) -> str:
    """`bestmove <move>`; `(none)` when the game is over."""
    return f"bestmove {move if move is not None else '(none)'}"


def parse_bestmove(line: str) -> str:
    """The move text of a `bestmove` line (`pass` and `(none)` included); a `ponder` part is ignored."""
    toks = _tokens(line)
    if toks and toks[0][0] == "bestmove":
        toks = toks[1:]
    if not toks:
        raise ProtocolError(line, len(line) + 1, "bestmove needs a move")
    if len(toks) > 1 and toks[1][0] != "ponder":
        raise ProtocolError(line, toks[1][1], f"bestmove: unexpected {toks[1][0]!r} after the move")
    return toks[0][0]


@dataclass
class EngineLine:
    """One line an engine printed, classified: kind is id, option, uciok, readyok, bestmove, info or other."""

    kind: str
    text: str
    id_key: str | None = None
    id_value: str | None = None
    option: OptionSpec | None = None
    move: str | None = None
    info: Info | None = None


def parse_engine_line(line: str) -> EngineLine:
    """Classify an engine's output line; ProtocolError only for a malformed known message."""
    word, rest = split_command(line)
    text = line.strip(BLANKS)
    if word == "id":
        key, value = split_command(rest)
        return EngineLine("id", text, id_key=key, id_value=value)
    if word == "option":
        return EngineLine("option", text, option=parse_option_line(text))
    if word in ("uciok", "readyok") and not rest:
        return EngineLine(word, text)
    if word == "bestmove":
        return EngineLine("bestmove", text, move=parse_bestmove(text))
    if word == "info":
        return EngineLine("info", text, info=parse_info(text))
    return EngineLine("other", text)


# -- perft and moves answers (read by the referee's check) ---------------------

def parse_perft_line(line: str) -> tuple[str, int]:
    """(move, count) of one `<move>: <count>` line of a `go perft` answer."""
    text = line.strip()
    move, sep, count = text.rpartition(":")
    if not sep or not move.strip():
        raise ProtocolError(line, 1, "perft: expected '<move>: <count>'")
    try:
        return move.strip(), whole_number(count.strip())
    except ValueError:
        raise ProtocolError(line, len(move) + 2, f"perft: {count.strip()!r} is not a count") from None


def parse_perft_total(line: str) -> int:
    """The node count of the `Nodes searched: <n>` line that ends a `go perft` answer."""
    head, sep, count = line.strip().partition(":")
    if head.strip() != "Nodes searched" or not sep:
        raise ProtocolError(line, 1, "perft: expected 'Nodes searched: <n>'")
    try:
        return whole_number(count.strip())
    except ValueError:
        raise ProtocolError(line, len(head) + 2, f"perft: {count.strip()!r} is not a count") from None


def parse_moves_line(line: str) -> list[str]:
    """The moves of a `moves <m1> <m2> ...` answer (SPEC 9: the legal moves, canonical, one line)."""
    word, rest = split_command(line)
    if word != "moves":
        raise ProtocolError(line, 1, f"expected 'moves ...', found {word!r}")
    return rest.split()
