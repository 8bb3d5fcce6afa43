"""Results per opening: did the opening or the engines decide the games?

A game pair plays one opening twice with the colours swapped. When one colour wins both games, the
pair splits 1-1 between the engines whoever they are: the opening decided it, not the engines.
Grouping finished games (records as stored in records.jsonl) by opening shows which openings do
that: Dark's share of each opening's points, each pair's games as colour letters (`D` Dark won,
`L` Light won, `=` a draw), and each engine's points as Dark and as Light.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol import new_game

from ..formats.record import dark_points
from ..formats.terminations import Termination

LETTER = {1.0: "D", 0.0: "L", 0.5: "="}


@dataclass
class Side:
    """One engine's points as one colour."""

    points: float = 0.0
    games: int = 0


@dataclass
class OpeningResult:
    """The games played from one opening."""

    opening: str
    """The opening as a book line writes it: the moves, or '<position string> moves ...'."""
    dark_points: float = 0.0
    games: int = 0
    forfeits: int = 0
    """Games an engine lost by a forfeit (time, crash, illegal move, ...): they say nothing of the opening."""
    pairs: dict[int, list[float]] = field(default_factory=dict)
    """Dark's points of each game, by pair (games in the order played)."""
    engines: dict[str, tuple[Side, Side]] = field(default_factory=dict)
    """Each engine's points as Dark and as Light."""
    repeats: int = 0
    """Games that repeated an earlier game of this opening move for move, same engines on the same
    colours: an engine that plays the same moves whatever its Seed (under a node limit, say)."""
    _games_seen: set[tuple[str, str, tuple[str, ...]]] = field(default_factory=set, repr=False)

    @property
    def dark_share(self) -> float:
        return self.dark_points / self.games if self.games else 0.5

    def pair_texts(self) -> list[str]:
        """Each pair as the colours that won its games, e.g. 'DD' (Dark won both), 'DL', '=L'."""
        return ["".join(LETTER[p] for p in games) for games in self.pairs.values()]

    def colour_decided_pairs(self) -> int:
        """Pairs of two or more games all won by one colour: the engines split them, the opening decided."""
        return sum(1 for games in self.pairs.values()
                   if len(games) >= 2 and (all(p == 1.0 for p in games) or all(p == 0.0 for p in games)))

    def is_even(self, max_gap: float) -> bool:
        """Dark's share of the points is within `max_gap` of one half."""
        return abs(self.dark_share - 0.5) <= max_gap + 1e-9

    def add(self, record: Mapping[str, Any]) -> None:
        dark = dark_points(record["result"])
        self.games += 1
        self.dark_points += dark
        if Termination(record["termination"]).is_forfeit:
            self.forfeits += 1
        dark_name, light_name = record["dark"]["name"], record["light"]["name"]
        game = (dark_name, light_name, tuple(str(move.get("move")) for move in record.get("moves") or []))
        if game in self._games_seen:
            self.repeats += 1
        self._games_seen.add(game)
        pair = record.get("pair")
        self.pairs.setdefault(record["game_id"] if pair is None else pair, []).append(dark)
        for name, side, points in ((dark_name, 0, dark), (light_name, 1, 1.0 - dark)):
            sides = self.engines.setdefault(name, (Side(), Side()))
            sides[side].points += points
            sides[side].games += 1


def opening_text(record: Mapping[str, Any]) -> str:
    """The opening of a record as a book line writes it."""
    moves = " ".join(record.get("opening") or [])
    start = record.get("start_position")
    if not start or start == new_game(record["game_type"]).position():
        return moves or "startpos"
    return f"{start} moves {moves}" if moves else start


def by_opening(records: Iterable[Mapping[str, Any]]) -> list[OpeningResult]:
    """The records grouped by opening, openings in the order of their first game (by game_id)."""
    results: dict[str, OpeningResult] = {}
    for record in sorted(records, key=lambda r: r["game_id"]):
        text = opening_text(record)
        results.setdefault(text, OpeningResult(text)).add(record)
    return list(results.values())


def _points(value: float) -> str:
    return f"{value:g}"


def opening_row(number: int, result: OpeningResult, engine: str | None = None, width: int = 30) -> str:
    """One line: number, opening, Dark's points and share, the pairs' colour letters, `engine`'s
    points as Dark and as Light (when given), forfeits."""
    text = result.opening if len(result.opening) <= width else result.opening[:width - 3] + "..."
    row = (f"{number:>4} {text:<{width}} dark {_points(result.dark_points):>4}/{result.games:<3} "
           f"{100 * result.dark_share:5.1f}%  pairs {' '.join(result.pair_texts())}")
    if engine is not None and engine in result.engines:
        dark, light = result.engines[engine]
        row += (f"  {engine} {_points(dark.points + light.points)}/{dark.games + light.games}"
                f" (Dark {_points(dark.points)}/{dark.games}, Light {_points(light.points)}/{light.games})")
    if result.forfeits:
        row += f"  forfeits {result.forfeits}"
    if result.repeats:
        row += f"  repeated {result.repeats}"
    return row


def summary_line(results: list[OpeningResult]) -> str:
    """Dark's share over all openings and how many pairs one colour won twice."""
    games = sum(r.games for r in results)
    dark = sum(r.dark_points for r in results)
    pairs = sum(len(r.pairs) for r in results)
    decided = sum(r.colour_decided_pairs() for r in results)
    forfeits = sum(r.forfeits for r in results)
    repeats = sum(r.repeats for r in results)
    share = 100 * dark / games if games else 50.0
    text = (f"{len(results)} openings, {games} games: Dark scored {_points(dark)} ({share:.1f}%); "
            f"{decided} of {pairs} pairs won by one colour twice (the opening, not the engines, decided them)")
    if forfeits:
        text += f"; {forfeits} games ended by a forfeit"
    if repeats:
        text += (f"; {repeats} games repeated an earlier game of their opening move for move (an engine "
                 f"that ignores its Seed at this time control: they add no information)")
    return text
