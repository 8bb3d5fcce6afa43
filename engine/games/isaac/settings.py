"""The parameters of ISAAC's search (a frozen value: tuning builds variants, nothing patches a module)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.games.isaac.playout_core import PlayoutSettings
from engine.search.mcts import MCTSSettings


@dataclass(frozen=True)
class IsaacSettings:
    """The parameters of ISAAC's search."""

    mcts: MCTSSettings = field(default_factory=lambda: MCTSSettings(c_puct=2.5, fpu_reduction=0.0))
    """The tree's numbers: wider than MCTSSettings' defaults (c_puct 1.4, fpu_reduction 0.2), which against the
    treemc partner left the search too narrow (docs/experiments.md)."""
    point_scale: float = 12.0
    """Evaluation points per logistic unit: a 12-point lead is a ~73% expected score."""
    prior_scale: float = 3.0
    """Placement guess points per e-fold of prior probability."""
    placement_potential: float = 1.5
    """Weight of potential in the evaluation of a placement position (the one-ply `heuristic`
    keeps knowledge.W_POT, 0.3). It values the placement positions a search stops on."""
    scoring_tempo: float = 8.0
    """Evaluation points for removing first in the scoring phase (a race to 100), while both still remove."""
    playout_sample: int = 3
    """A playout's placement is the longest of this many uniformly drawn legal placements
    (value on the board is what scores; long pieces first, but not always the same spots)."""
    leaf_playouts: int = 1
    """Playouts to the game's end in C (the playout core, playout_core.py, with leaf_policy) per placement leaf; 0: none."""
    leaf_policy: PlayoutSettings = field(default_factory=PlayoutSettings)
    """The policy of those playouts: the partner's own by default (more random ones won in self-play
    but not against the partner: docs/experiments.md)."""
    leaf_playout_mix: float = 1.0
    """A placement leaf's value: this share from those playouts, the rest from the placement playout
    to the scoring phase and the evaluation there (also the whole value where the core is not built)."""
    removal_prior_decay: float = 0.8
    """Prior of the i-th removal candidate (best guess first) is proportional to this ** i."""
    tree_removals: bool = True
    """The C tree (where the playout core is built) also searches the scoring phase's removals below the
    placements: the partner's candidates (at most its `removals`), priors removal_prior_decay ** i, leaves by its
    playouts; False: a node there stays a leaf, valued by the playouts at each visit."""
    tree_scoring: bool = True
    """A move in the scoring phase is searched by the C tree too (with tree_removals' candidates and leaves) where
    the playout core is built; False (and without the core): by the alpha-beta over the removal candidates."""
    reuse_tree: bool = True
    """The C tree is kept from one move to the next (our move and the reply found in it, its subtree kept), as the
    treemc partner's is; False: a new tree at every move."""
    scoring_wide_plies: int = 64
    """The scoring phase's alpha-beta searches the wide removal candidates (multiplier set-ups too)
    up to this ply below the root, the narrow ones (full score, best block) deeper."""
