"""Strategy `random`: a uniformly random legal move, reproducible with the Seed option.

Uniform over the legal moves as the rules count them (HARI: over every distinct
move, via the game's own `random_move`, which does not list them all).
"""

from __future__ import annotations

from protocol.messages import Info


class RandomStrategy:
    """Sparring partner: no evaluation at all."""

    name = "random"

    def choose(self, game, limits, stop, report, rng):
        move = game.random_move(rng)
        report(Info(depth=0, nodes=1, pv=[str(move)]))
        return move
