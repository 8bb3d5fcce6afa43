"""The parameters of FOUNDATIONS' search (a frozen value: tuning builds variants, nothing patches a module)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.search.mcts import MCTSSettings


@dataclass(frozen=True)
class FoundationsSettings:
    """The parameters of FOUNDATIONS' search."""

    mcts: MCTSSettings = field(default_factory=lambda: MCTSSettings(fpu_reduction=0.0, widen_factor=2.0))
    """An untried move counts as its parent's full value (a first-play reduction left good replies untried), and an
    inner node has 3 + 2 x sqrt(visits) of its moves in play (with untried moves valued so, a wider node spends its
    visits on replies it need not try). The measurements that chose both: docs/experiments.md, FOUNDATIONS."""
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
