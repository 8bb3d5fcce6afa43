"""The parameters of HARI's search (a frozen value: tuning builds variants, nothing patches a module)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MonteCarloSettings:
    """The flat Monte Carlo that plays where the C core was not built (montecarlo.py)."""

    k: int = 16
    """Root candidates: the race ranking's best k ..."""
    per_length: int = 2
    """... plus the best this many of every length played, so that a longer piece is always weighed."""
    ucb_c: float = 0.4
    playout_plies: int = 80
    skip: float = 0.25
    """Playouts: chance of playing the second-shortest length instead of the shortest (giving up the shortest)."""
    spread: int = 3
    """Playouts: the snug spot is looked for among about this many starts drawn anywhere on the board."""


@dataclass(frozen=True)
class HariSettings:
    """The parameters of HARI's search (search.py)."""

    root_per_length: int = 16
    """The alpha-beta's root tries the snuggest placements of each playable length, this many."""
    inner_per_length: int = 10
    """... and every ply below it this many."""
    table_bits: int = 18
    """The C core's transposition table holds 2**table_bits entries (8 MB at 18)."""
    margin_scale: float = 6.0
    """Board-value points per logistic unit, for the reported score."""
    wdl_weight: float = 0.7
    """A game end's value in the Monte Carlo: this share win/draw/loss, the rest the margin."""
    endgame_plies: int = 8
    """Without the C core: alpha-beta once both hands together have at most this many plays left."""
    montecarlo: MonteCarloSettings = field(default_factory=MonteCarloSettings)
