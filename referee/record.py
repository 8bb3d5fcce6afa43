"""The record of one finished game: what a JSON Lines file holds, one object per line.

Everything needed to replay, audit or score the game is here: the start position,
the opening, every move with the time the referee measured and the engine's last
`info`, the result and a precise termination reason.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from .terminations import Termination

if TYPE_CHECKING:
    from protocol.messages import Info

TERMINATIONS = tuple(t.value for t in Termination)
"""Why a game ended (the values of Termination). Every value but 'normal' and 'adjudication' is a forfeit."""

RESULTS = ("1-0", "0-1", "1/2-1/2")
"""'1-0' Dark won, '0-1' Light won, '1/2-1/2' draw."""


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

    def __post_init__(self) -> None:
        if self.termination not in TERMINATIONS:
            raise ValueError(f"unknown termination {self.termination!r}; expected one of {TERMINATIONS}")
        self.termination = Termination(self.termination)
        if self.result not in RESULTS:
            raise ValueError(f"unknown result {self.result!r}; expected one of {RESULTS}")

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["moves"] = [m.to_json() for m in self.moves]
        out["opening"] = list(self.opening)
        out["final_scores"] = list(self.final_scores)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        """Read back a record; unknown keys (from newer writers) are ignored."""
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in d.items() if k in known}
        data["moves"] = [MoveRecord.from_json(m) for m in d.get("moves", [])]
        data["opening"] = list(d.get("opening", []))
        data["final_scores"] = [int(x) for x in d.get("final_scores", [])]
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


__all__ = ["TERMINATIONS", "RESULTS", "MoveRecord", "GameRecord", "info_to_dict"]
