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

    widths: tuple[tuple[int, int], ...] = ((32, 16), (32, 24), (32, 32))
    """The alpha-beta's candidates: the snuggest placements of each playable length it tries at the
    root and at every ply below it. The first pair is searched; a search that reaches the game's end
    before its time is up searches again with the next (at most 32 a length)."""
    scarce: int = 200
    """A length with fewer placements than this gets slide candidates (one own piece slid to make room);
    200, more than any length has: every length."""
    slide_max: int = 24
    """Slide candidates kept at a node, the best guesses."""
    blocks: int = 8
    """Blocking candidates kept at the root (one own piece slid into the room of the opponent's next
    piece, then a placement: candidates.block_candidates), those taking most room first."""
    inner_blocks: int = 4
    """The same below the root."""
    place_blocks: int = 16
    """Placements (no slide) kept at the root for the room they take from the opponent's next piece,
    those taking most first (candidates.placement_blocks), besides the snuggest."""
    inner_place_blocks: int = 4
    """The same below the root."""
    budget_tiers: tuple[tuple[float, int, int, int, int], ...] = ((40.0, 48, 4, 2, 2), (100.0, 96, 8, 3, 3))
    """Budget-sized widths (the C core's; _search_core.c's budget_tier): after the first iteration, the nodes the
    search can still expect per root move pick the first tier (ratio, keep, per_length, blocks, place_blocks)
    whose ratio is above them; the search then keeps that many root moves, the best by the first iteration, and
    searches below the root with those placements a length, blocks and placement blocks. Above every tier, the
    widths as set (a long move, an idle machine); () turns it off. Narrow lists search deeper, which pays where
    the nodes are few and costs where they are many (docs/experiments.md)."""
    table_bits: int = 18
    """The C core's transposition table holds 2**table_bits entries (8 MB at 18)."""
    margin_scale: float = 6.0
    """Board-value points per logistic unit, for the reported score."""
    wdl_weight: float = 0.7
    """A game end's value in the Monte Carlo: this share win/draw/loss, the rest the margin."""
    endgame_plies: int = 8
    """Without the C core: alpha-beta once both hands together have at most this many plays left."""
    montecarlo: MonteCarloSettings = field(default_factory=MonteCarloSettings)

    def __post_init__(self) -> None:
        """Within what the C core takes (it would refuse them in the middle of a search)."""
        if not self.widths or any(len(w) != 2 or not (1 <= w[0] <= 32 and 1 <= w[1] <= 32) for w in self.widths):
            raise ValueError("widths are pairs of placements a length at the root and below, each 1 to 32")
        if not (0 <= self.scarce <= 200 and 0 <= self.slide_max <= 64 and 0 <= self.blocks <= 31
                and 0 <= self.inner_blocks <= 31 and 0 <= self.place_blocks <= 63 and 0 <= self.inner_place_blocks <= 63
                and 0 <= self.table_bits <= 24):
            raise ValueError("scarce is 0 to 200, slide_max 0 to 64, blocks and inner_blocks 0 to 31, "
                             "place_blocks and inner_place_blocks 0 to 63, table_bits 0 to 24")
        ratios = [t[0] for t in self.budget_tiers]
        if (len(self.budget_tiers) > 8 or any(len(t) != 5 for t in self.budget_tiers)
                or any(not (r > 0) for r in ratios) or ratios != sorted(set(ratios))
                or any(not (t[1] >= 1 and 1 <= t[2] <= 32 and 0 <= t[3] <= 31 and 0 <= t[4] <= 63)
                       for t in self.budget_tiers)):
            raise ValueError("budget_tiers: at most 8 tiers (ratio, keep, per_length, blocks, place_blocks), ratios "
                             "above 0 and rising, keep at least 1, per_length 1 to 32, blocks 0 to 31, "
                             "place_blocks 0 to 63")
