"""Which games a match or tournament consists of, as a deterministic sequence.

A game's identity is its index in this sequence (computed on demand, never stored): the same configuration always
yields the same list, so ``--resume`` knows exactly which games are done (their
indices are in the records) and which are still to play.

Games come in pairs: the same opening twice with the colours swapped, so
neither engine profits from a lucky opening or from moving first. A pair's two
games are adjacent in the list. In tournaments every encounter of a round uses
the same openings, so all engines face the same positions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import overload

FORMATS = ("round-robin", "gauntlet")


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


def match_schedule(first: str, second: str, games: int) -> Schedule:
    """`games` games in pairs; the first engine has Dark in the first game of each pair."""
    _check_names([first, second], 2)
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    return Schedule([(first, second)], games, 1, odd_swaps=False)


def encounters(names: list[str], fmt: str) -> list[tuple[str, str]]:
    """Engine pairings of one round: all pairs (round-robin) or the first engine against each other."""
    if fmt == "round-robin":
        _check_names(names, 2)
        return list(combinations(names, 2))
    if fmt == "gauntlet":
        _check_names(names, 2)
        return [(names[0], other) for other in names[1:]]
    raise ValueError(f"unknown tournament format {fmt!r}; expected one of {', '.join(FORMATS)}")


def tournament_schedule(names: list[str], fmt: str, games: int, rounds: int) -> Schedule:
    """`rounds` rounds; in each, every encounter plays `games` games in pairs.

    Within a round the pair openings are shared by all encounters, and the
    games are interleaved pair by pair across encounters, so concurrent games
    spread over all engines instead of hammering one encounter. When `games` is
    odd, the lone last game alternates colours between encounters and rounds
    (and so do all of that encounter's pairs in that round).
    """
    if games < 1:
        raise ValueError(f"--games (per encounter per round) must be at least 1, not {games}")
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, not {rounds}")
    return Schedule(encounters(names, fmt), games, rounds, odd_swaps=True)


class Schedule(Sequence[ScheduledGame]):
    """The games of a run, computed from their index: a million games cost no memory.

    Rounds follow each other; in a round, pair k of every encounter comes before pair k + 1 of
    any, and the two games of a pair are adjacent (Dark first for the encounter's first engine,
    unless the encounter's colours are swapped that round)."""

    def __init__(self, pairings: list[tuple[str, str]], games: int, rounds: int, odd_swaps: bool):
        self.pairings = list(pairings)
        self.games = games                      # per encounter per round
        self.rounds = rounds
        self.pairs = (games + 1) // 2           # pairs per encounter per round
        self.odd_swaps = odd_swaps and games % 2 == 1
        self._per_round = len(self.pairings) * games
        self._full = games // 2                 # complete pairs per encounter per round

    def __len__(self) -> int:
        return self._per_round * self.rounds

    @overload
    def __getitem__(self, index: int) -> ScheduledGame: ...

    @overload
    def __getitem__(self, index: slice) -> list[ScheduledGame]: ...

    def __getitem__(self, index: int | slice) -> ScheduledGame | list[ScheduledGame]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"game {index} is not in a schedule of {len(self)} games")
        encounters_n = len(self.pairings)
        round_, j = divmod(index, self._per_round)
        if j < self._full * 2 * encounters_n:
            k, within = divmod(j, 2 * encounters_n)
            e, second_game = divmod(within, 2)
        else:                                   # the lone last game of each encounter (odd games)
            k, e, second_game = self._full, j - self._full * 2 * encounters_n, 0
        first, second = self.pairings[e]
        if self.odd_swaps and (round_ + e) % 2 == 1:
            first, second = second, first
        dark, light = (second, first) if second_game else (first, second)
        return ScheduledGame(index, dark, light, opening=round_ * self.pairs + k,
                             pair=round_ * encounters_n * self.pairs + e * self.pairs + k, round=round_ + 1)

    def __iter__(self) -> Iterator[ScheduledGame]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Schedule):
            return (self.pairings, self.games, self.rounds, self.odd_swaps) == \
                (other.pairings, other.games, other.rounds, other.odd_swaps)
        if isinstance(other, list):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((tuple(self.pairings), self.games, self.rounds, self.odd_swaps))

    def openings_used(self) -> int:
        """How many distinct opening indexes the games use (0 .. n-1)."""
        return self.rounds * self.pairs

    def names(self) -> list[str]:
        """The engines that play, in order of first appearance."""
        return list(dict.fromkeys(name for pairing in self.pairings for name in pairing))


SEED_MODULUS = 2**31 - 1
"""A prime: game seeds are 0 .. SEED_MODULUS - 1, and an affine map modulo it is one to one."""


def game_seed(run_seed: int, game_id: int) -> int:
    """The seed of one game: (a * game_id + b) mod (2**31 - 1), with a (not 0) and b drawn from the
    run's seed (blake2b). The same run gives each game the same seed on every machine and on
    --resume, and no two games of a run the same seed."""
    digest = hashlib.blake2b(str(run_seed).encode(), digest_size=16).digest()
    a = 1 + int.from_bytes(digest[:8], "big") % (SEED_MODULUS - 1)
    b = int.from_bytes(digest[8:], "big") % SEED_MODULUS
    return (a * game_id + b) % SEED_MODULUS
