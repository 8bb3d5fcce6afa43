"""HARI's playout core in C, seen from Python: the position as the core reads it, its answers as moves.

The core (engine/games/hari/_playout_core.c) holds its own model of the position (why HARI has two:
engine/games/hari/_shared.h), root candidates (snug placements per length, the shortest piece's
discard, one own piece slid to make room) and epsilon-greedy playouts to the end of the game
(slides where the policy needs them: upgrades when nothing fits); the `fastmc` sparring partner
(FASTMC) runs flat Monte Carlo over them and has its move vetted by ``check_move``
(engine/strategies/fast_mc.py). ``position_tuple`` is what both of HARI's C cores read.
``AVAILABLE`` is False where the extension could not be compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.games.parts import CompiledPlayoutCore, NativePlayouts, PlayoutCore, compiled, narrowed
from engine.games.treemc import TreeMCSettings
from protocol.board import SEGMENTS
from protocol.game import Game
from protocol.games.hari.rules import HariGame
from protocol.moves import PASS, HariMove, Move, Slide

NativeMove = tuple[int, int, tuple[tuple[int, int], ...]]
"""(placed segment or -1 for a discard, length (0: a pass), ((slid piece, its end or -1 for off), ...))."""

_core: NativePlayouts[NativeMove] | None = compiled("engine.games.hari._playout_core")
"""The C core; None where it was not compiled, and then fastmc plays flatmc's Python playouts instead."""

AVAILABLE = _core is not None


@dataclass(frozen=True)
class PlayoutSettings:
    """HARI's `fastmc` playouts and root (how each number is used: _playout_core.c's comment). A yardstick
    keeps them fixed; a tuning run builds a variant (`fastmc:hari.<field>=<value>`) rather than patching."""

    eps: float = 0.05
    """Chance of a uniformly drawn playable length on a uniformly drawn spot instead of the greedy play."""
    play3: float = 0.2
    """Chance of playing a 3 when it is the shortest playable length and a longer one fits."""
    jump: float = 0.0
    """Chance of the next length that fits instead of the shortest."""
    sample: int = 2
    """Spots drawn for the greedy placement; the snuggest is played."""
    margin_weight: float = 0.2
    """Share of a playout's value from the final board-value margin (the rest: win 1, draw 1/2, loss 0)."""
    margin_scale: float = 6.0
    """Board-value points per tanh unit of that margin."""
    per_length: int = 200
    """Root placements: the snuggest this many spots of each playable length (200: all of them)."""
    slides: int = 64
    """Root slide moves (one own piece slid to make room for a length): at most this many, best guesses first."""
    scarce: int = 200
    """A length with fewer placements than this gets slide moves at the root (200: every length)."""
    spread: float = 1.0
    """Random jitter added to a spot's free-neighbour count (ties and near-ties at random)."""
    upgrade: int = 1
    """1: when no playable length fits, a playout slides one own piece to make room (0: it discards)."""
    blocks: int = 16
    """Root moves sliding one own piece into the room of the opponent's next piece (then a placement): at most
    this many, those taking most of that room first."""
    ucb_c: float = 0.4
    """UCB1's exploration constant at the root."""

    def params(self) -> tuple[float, ...]:
        """The core's parameters, in its order (all fields but ucb_c, which the budget carries)."""
        return (self.eps, self.play3, self.jump, self.sample, self.margin_weight, self.margin_scale, self.per_length,
                self.slides, self.scarce, self.spread, self.upgrade, self.blocks)


DEFAULTS = PlayoutSettings()


def position_tuple(position: Game) -> tuple[object, ...]:
    """The position as the C cores read it (HariGame's public state)."""
    game = narrowed(position, HariGame, "HARI's C cores")
    return ([s.index for s in game.pieces(0)], [s.index for s in game.pieces(1)], game.hand(0), game.hand(1),
            game.min_length(0), game.min_length(1), game.turn, game.passes)


def to_move(native: NativeMove) -> Move:
    """A core move as a protocol move (not yet checked by the rules)."""
    place, length, slides = native
    if length == 0:
        return PASS
    moves = tuple(Slide(SEGMENTS[start], SEGMENTS[end] if end >= 0 else None) for start, end in slides)
    if place >= 0:
        return HariMove(moves, SEGMENTS[place], 0)
    return HariMove(moves, None, length)


def core() -> NativePlayouts[NativeMove]:
    assert _core is not None, "the HARI playout core is not built"
    return _core


def moves_left(position: Game) -> int:
    """The plays the side to move still has, roughly (for the clock): about two thirds of its
    playable pieces (short ones are often skipped)."""
    game = narrowed(position, HariGame, "HARI's playout core")
    me = game.turn
    hand = game.hand(me)
    return max(1, int(sum(hand[n] for n in game.playable_lengths(me))) * 2 // 3)


TREEMC = TreeMCSettings(root=DEFAULTS, inner=replace(DEFAULTS, per_length=8, slides=8, blocks=4), playouts=DEFAULTS)
"""The `treemc` partner's numbers in HARI: the root as `fastmc`'s (every placement, 64 slides, 16 blocks), the
inner nodes 8 placements a length, 8 slides and 4 blocks, `fastmc`'s playouts."""

FASTMC: PlayoutCore | None = (CompiledPlayoutCore(DEFAULTS, _core, position_tuple, to_move, moves_left, TREEMC)
                              if _core is not None else None)
"""The core as `fastmc` and `treemc` drive it; None where it was not compiled."""
