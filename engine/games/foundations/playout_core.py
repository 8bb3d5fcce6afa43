"""FOUNDATIONS' playout core in C, seen from Python: the position as the core reads it, its answers as moves.

The core (engine/games/foundations/_playout_core.c, on the game's one C model of a position,
_position.h) holds root candidates and epsilon-greedy playouts to the end of the game; the
`fastmc` sparring partner (FASTMC) runs flat Monte Carlo over them and has its move vetted by
``check_move`` (engine/strategies/fast_mc.py). ``position_tuple`` is what both of FOUNDATIONS'
C cores read. ``AVAILABLE`` is False where the extension could not be compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.games.parts import CompiledPlayoutCore, NativePlayouts, PlayoutCore, compiled, narrowed
from engine.games.treemc import TreeMCSettings
from protocol.board import SEGMENTS
from protocol.game import Game
from protocol.games.foundations.rules import FoundationsGame
from protocol.moves import PASS, Move, Place

NativeMove = tuple[int, int]
"""(segment index, level); (-1, 0) is a pass."""

_core: NativePlayouts[NativeMove] | None = compiled("engine.games.foundations._playout_core")
"""The C core; None where it was not compiled, and then fastmc plays flatmc's Python playouts instead."""

AVAILABLE = _core is not None


@dataclass(frozen=True)
class PlayoutSettings:
    """FOUNDATIONS' playout policy and root candidates for `fastmc` (_playout_core.c's comment says how each is
    used): a yardstick's fixed numbers, which only tuning varies (`fastmc:foundations.<field>=<value>`)."""

    eps: float = 0.05
    """Chance of a uniformly drawn legal placement instead of the greedy one."""
    skip: float = 0.2
    """Chance of the next length that fits instead of the shortest."""
    sample: int = 4
    """Spots drawn for the greedy placement; the snuggest is played."""
    margin_weight: float = 0.2
    """Share of a playout's value from the final hand-value margin (the rest: win 1, draw 1/2, loss 0)."""
    margin_scale: float = 4.0
    """Hand-value points per tanh unit of that margin."""
    width: int = 24
    """Root candidates: every legal placement up to this many, else this many best guesses."""
    snug_weight: float = 0.25
    """Guess points lost per free neighbour of a root placement."""
    ucb_c: float = 0.4
    """UCB1's exploration constant at the root."""

    def params(self) -> tuple[float, ...]:
        """The core's parameters, in its order (all fields but ucb_c, which the budget carries)."""
        return (self.eps, self.skip, self.sample, self.margin_weight, self.margin_scale, self.width, self.snug_weight)


DEFAULTS = PlayoutSettings()


def position_tuple(position: Game) -> tuple[object, ...]:
    """The position as the C cores read it (FoundationsGame's public state)."""
    game = narrowed(position, FoundationsGame, "FOUNDATIONS's C cores")
    return (game.turn, game.passes, game.hand(0), game.hand(1),
            [s.index * 16 + k for s, k in game.pieces(0)], [s.index * 16 + k for s, k in game.pieces(1)],
            game.level(0), game.level(1), game.min_length(0), game.min_length(1))


def to_move(native: NativeMove) -> Move:
    """A core move as a protocol move (not yet checked by the rules)."""
    seg, level = native
    return PASS if seg < 0 else Place(SEGMENTS[seg], level)


def core() -> NativePlayouts[NativeMove]:
    assert _core is not None, "the FOUNDATIONS playout core is not built"
    return _core


def moves_left(position: Game) -> int:
    """The moves the side to move still makes, roughly (for the clock): most of its hand."""
    game = narrowed(position, FoundationsGame, "FOUNDATIONS's playout core")
    return max(1, int(sum(game.hand(game.turn))) * 2 // 3)


TREEMC = TreeMCSettings(root=DEFAULTS, inner=replace(DEFAULTS, width=12), playouts=DEFAULTS)
"""The `treemc` partner's numbers in FOUNDATIONS: the root as `fastmc`'s (24 placements), the inner nodes 12,
`fastmc`'s playouts."""

FASTMC: PlayoutCore | None = (CompiledPlayoutCore(DEFAULTS, _core, position_tuple, to_move, moves_left, TREEMC)
                              if _core is not None else None)
"""The core as `fastmc` and `treemc` drive it; None where it was not compiled."""
