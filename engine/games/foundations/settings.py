"""The parameters of FOUNDATIONS' search (a frozen value: tuning builds variants, nothing patches a module)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.search.mcts import MCTSSettings


@dataclass(frozen=True)
class FoundationsSettings:
    """The parameters of FOUNDATIONS' search."""

    mcts: MCTSSettings = field(default_factory=lambda: MCTSSettings(fpu_reduction=0.0, widen_factor=2.0))
    """An untried move counts as its parent's full value (no first-play reduction: 0.08 left good replies untried;
    without it the search won its SPRT in self-play and scores at least as well against the tree partner, which
    tries every candidate); an inner node has 3 + 2 x sqrt(visits) of its moves in play: with no first-play
    reduction a narrower widening than 2.5 won its SPRT against itself, scored better against the fast partner and
    as well against the tree partner; a larger c_puct or widen_factor gained nothing (docs/experiments.md,
    FOUNDATIONS)."""
    playout_plies: int = 40
    leaf_mix: float = 0.5
    """A leaf's value: this share from the static model (value.model_value), the rest from one playout."""
    prior_temperature: float = 1.0
    margin_scale: float = 8.0
    wdl_weight: float = 0.95
    """Share of win/draw/loss in a game end's value (the rest: the hand-value margin). Wins are
    what a match counts, and most games between good players end with both hands empty, decided
    by the tiebreak at margin 0."""
    refined: int = 16
    """Root moves whose guess also counts dead cells and the opponent's lost room (ordering.py)."""
    deviate: float = 0.2
    """Share of playout moves that play some other allowed length than the shortest."""
    playout_sample: int = 2
    """Placements drawn per playout move; the snuggest is played."""
