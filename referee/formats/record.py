"""The record of one finished game: what a JSON Lines file holds, one object per line.

Everything needed to replay, audit or score the game is here: the start position,
the opening, every move with the time the referee measured and the engine's last
`info`, the result and a precise termination reason. A game lost during a `go` also
keeps what the referee saw of that move (`forfeited_move`): the forfeited move is not
in `moves`, and without it a time forfeit cannot be told from a slow pipe or a hung engine.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .terminations import Termination

if TYPE_CHECKING:
    from protocol.messages import Info

TERMINATIONS = tuple(t.value for t in Termination)
"""Why a game ended (the values of Termination). Every value but 'normal' and 'adjudication' is a forfeit."""

RESULTS = ("1-0", "0-1", "1/2-1/2")
"""'1-0' Dark won, '0-1' Light won, '1/2-1/2' draw."""

INFO_LINES_KEPT = 3
"""How many of the engine's last `info` lines a forfeited move keeps (the latest matter most)."""
INFO_LINE_CHARS = 300
"""Longer `info` lines are cut to this many characters (a record line must stay small)."""


def dark_points(result: str) -> float:
    """Dark's points of a game by its result: 1, 0, or 1/2 (a draw, and a result not known here)."""
    return 1.0 if result == "1-0" else 0.0 if result == "0-1" else 0.5


@dataclass
class MoveRecord:
    """One move: canonical notation, the referee's own measurement, and the engine's last info."""

    move: str
    ms: int
    info: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": self.move, "ms": self.ms}
        if self.info:
            out["info"] = self.info
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MoveRecord:
        return cls(move=str(d["move"]), ms=int(d["ms"]), info=d.get("info") or None)


@dataclass(frozen=True)
class InfoLine:
    """One `info` line of a forfeited move, as the engine printed it (cut), and when the referee read it."""

    ms: int       # since the referee sent `go`, by the referee's clock
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"ms": self.ms, "text": self.text}

    @classmethod
    def from_json(cls, d: Any) -> InfoLine:
        if not isinstance(d, dict):
            raise ValueError(f"an info line is an object, not {type(d).__name__}")
        return cls(ms=int(d["ms"]), text=str(d["text"]))


@dataclass
class ForfeitedMove:
    """What the referee saw during the `go` a side lost the game in: enough to diagnose the loss.

    `ms` is the referee's own measurement from `go` to the `bestmove` it read (or to the moment it
    gave up on the move); `info` holds the engine's last INFO_LINES_KEPT `info` lines, oldest first."""

    ms: int
    allowed_ms: int | None = None     # the move's allowed time without margin; None when untimed
    move: str | None = None           # the bestmove as sent; None when none (readable) came
    info: list[InfoLine] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"ms": self.ms, "allowed_ms": self.allowed_ms, "move": self.move,
                "info": [line.to_json() for line in self.info]}

    @classmethod
    def from_json(cls, d: Any) -> ForfeitedMove:
        if not isinstance(d, dict):
            raise ValueError(f"forfeited_move is an object, not {type(d).__name__}")
        allowed, move, lines = d.get("allowed_ms"), d.get("move"), d.get("info") or []
        if not isinstance(lines, list):
            raise ValueError("forfeited_move.info is a list of lines")
        return cls(ms=int(d["ms"]), allowed_ms=None if allowed is None else int(allowed),
                   move=None if move is None else str(move), info=[InfoLine.from_json(x) for x in lines])


@dataclass
class GameRecord:
    game_id: int
    game_type: str
    rules_version: str
    start_position: str
    opening: list[str]
    dark: dict[str, Any]           # EngineSpec.to_json() of each side
    light: dict[str, Any]
    time_control: dict[str, Any]   # {"dark": str(tc), "light": str(tc)}
    moves: list[MoveRecord]
    result: str                    # one of RESULTS
    termination: Termination       # a StrEnum: written to JSON as its plain string
    reason: str                    # one precise sentence
    final_scores: list[int]        # [dark, light] from the rules, or [] when a forfeit came first
    final_position: str
    pair: int | None = None
    round: int | None = None
    started_at: str = ""
    duration_s: float = 0.0
    forfeited_move: ForfeitedMove | None = None   # only when a forfeit happened during a `go`
    seed: int | None = None        # the game's seed (handed to engines declaring a Seed option)

    def __post_init__(self) -> None:
        if self.termination not in TERMINATIONS:
            raise ValueError(f"unknown termination {self.termination!r}; expected one of {TERMINATIONS}")
        self.termination = Termination(self.termination)
        if self.result not in RESULTS:
            raise ValueError(f"unknown result {self.result!r}; expected one of {RESULTS}")
        if self.forfeited_move is not None and not self.termination.is_forfeit:
            raise ValueError(f"forfeited_move given for a game that ended {self.termination.value!r}, not by a forfeit")

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["moves"] = [m.to_json() for m in self.moves]
        out["opening"] = list(self.opening)
        out["final_scores"] = list(self.final_scores)
        if self.forfeited_move is None:
            del out["forfeited_move"]   # records of games not lost during a `go` stay as they were
        else:
            out["forfeited_move"] = self.forfeited_move.to_json()
        if self.seed is None:
            del out["seed"]
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        """Read back a record; unknown keys (from newer writers) are ignored."""
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in d.items() if k in known}
        data["moves"] = [MoveRecord.from_json(m) for m in d.get("moves", [])]
        data["opening"] = list(d.get("opening", []))
        data["final_scores"] = [int(x) for x in d.get("final_scores", [])]
        forfeited = d.get("forfeited_move")
        data["forfeited_move"] = None if forfeited is None else ForfeitedMove.from_json(forfeited)
        return cls(**data)

    @property
    def winner(self) -> int | None:
        """0 (Dark), 1 (Light) or None for a draw."""
        return {"1-0": 0, "0-1": 1}.get(self.result)

    def winner_name(self) -> str | None:
        """The winning engine's name, None for a draw."""
        side = self.winner
        if side is None:
            return None
        name = (self.dark if side == 0 else self.light).get("name")
        return None if name is None else str(name)

    def is_forfeit(self) -> bool:
        return self.termination.is_forfeit


def info_to_dict(info: Info | None) -> dict[str, Any] | None:
    """A protocol.messages.Info as a compact dict (only the fields the engine gave)."""
    if info is None:
        return None
    out: dict[str, Any] = {}
    for key, value in asdict(info).items():
        if value is None or value == []:
            continue
        out[key] = list(value) if isinstance(value, tuple) else value
    return out or None


__all__ = ["TERMINATIONS", "RESULTS", "INFO_LINES_KEPT", "INFO_LINE_CHARS", "MoveRecord", "InfoLine",
           "ForfeitedMove", "GameRecord", "info_to_dict"]
