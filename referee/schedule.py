"""Which games a match or tournament consists of, as a deterministic list.

A game's identity is its index in this list: the same configuration always
yields the same list, so ``--resume`` knows exactly which games are done (their
indices are in the records) and which are still to play.

Games come in pairs: the same opening twice with the colours swapped, so
neither engine profits from a lucky opening or from moving first. A pair's two
games are adjacent in the list. In tournaments every encounter of a round uses
the same openings, so all engines face the same positions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

FORMATS = ("round-robin", "gauntlet")


Row = tuple[str, str, int, int, int]
"""(dark, light, opening, pair, round) of one game before it gets its index."""


@dataclass(frozen=True)
class ScheduledGame:
    index: int
    dark: str
    light: str
    opening: int
    """Index into the opening book; both games of a pair share it."""
    pair: int
    """Global pair number; the pentanomial statistics group games by it."""
    round: int
    """1-based tournament round (always 1 in a match)."""


def _check_names(names: list[str], minimum: int) -> None:
    if len(names) < minimum:
        raise ValueError(f"needs at least {minimum} engines, got {len(names)}")
    seen = set()
    for name in names:
        if name in seen:
            raise ValueError(f"engine name {name!r} is given twice; every engine needs its own name")
        seen.add(name)


def _encounter_games(first: str, second: str, games: int, start_pair: int, opening_base: int,
                     round_: int, swap_first: bool) -> Iterator[Row]:
    """Yield (dark, light, opening, pair, round) for one encounter, pair by pair."""
    for k in range((games + 1) // 2):
        a, b = (second, first) if swap_first else (first, second)
        yield a, b, opening_base + k, start_pair + k, round_
        if 2 * k + 1 < games:
            yield b, a, opening_base + k, start_pair + k, round_


def match_schedule(first: str, second: str, games: int) -> list[ScheduledGame]:
    """`games` games in pairs; the first engine has Dark in the first game of each pair."""
    _check_names([first, second], 2)
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    rows = _encounter_games(first, second, games, 0, 0, 1, False)
    return [ScheduledGame(i, *row) for i, row in enumerate(rows)]


def encounters(names: list[str], fmt: str) -> list[tuple[str, str]]:
    """Engine pairings of one round: all pairs (round-robin) or the first engine against each other."""
    if fmt == "round-robin":
        _check_names(names, 2)
        return list(combinations(names, 2))
    if fmt == "gauntlet":
        _check_names(names, 2)
        return [(names[0], other) for other in names[1:]]
    raise ValueError(f"unknown tournament format {fmt!r}; expected one of {', '.join(FORMATS)}")


def tournament_schedule(names: list[str], fmt: str, games: int, rounds: int) -> list[ScheduledGame]:
    """`rounds` rounds; in each, every encounter plays `games` games in pairs.

    Within a round the pair openings are shared by all encounters, and the
    games are interleaved pair by pair across encounters, so concurrent games
    spread over all engines instead of hammering one encounter. When `games` is
    odd, the lone last game alternates colours between encounters and rounds.
    """
    if games < 1:
        raise ValueError(f"--games (per encounter per round) must be at least 1, not {games}")
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, not {rounds}")
    pairings = encounters(names, fmt)
    pairs_per_encounter = (games + 1) // 2
    rows = []
    pair_id = 0
    for r in range(rounds):
        per_encounter = []
        for e, (first, second) in enumerate(pairings):
            swap = (r + e) % 2 == 1 and games % 2 == 1
            start = pair_id + e * pairs_per_encounter
            per_encounter.append(list(_encounter_games(first, second, games, start,
                                                       r * pairs_per_encounter, r + 1, swap)))
        pair_id += len(pairings) * pairs_per_encounter
        rows += _interleave_by_pair(per_encounter)
    return [ScheduledGame(i, *row) for i, row in enumerate(rows)]


def _interleave_by_pair(per_encounter: list[list[Row]]) -> list[Row]:
    """Pair k of every encounter, then pair k+1 of every encounter, keeping pairs adjacent."""
    grouped: list[list[list[Row]]] = []
    for games in per_encounter:
        by_pair: dict[int, list[Row]] = {}
        for row in games:
            by_pair.setdefault(row[3], []).append(row)
        grouped.append(list(by_pair.values()))
    out: list[Row] = []
    for k in range(max((len(g) for g in grouped), default=0)):
        for pairs in grouped:
            if k < len(pairs):
                out += pairs[k]
    return out
