"""HARI's searcher: iterative-deepening alpha-beta toward the game's end over built candidates.

The candidates (candidates.py) are each length's snuggest placements, one own piece slid to
make room, and the moves that take room from the opponent's next piece; the leaves are valued
by the packing race with upgrades (race.contest_margin); wins and losses are exact. The C search core (search_core.py) runs this search
at every move where it was built, with a transposition table. Without it, the Python
alpha-beta runs once at most HariSettings.endgame_plies plays are left, and flat Monte
Carlo (montecarlo.py) before that.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.search.alphabeta import ABResult, AlphaBeta
from engine.search.context import SearchContext
from engine.search.searcher import Searcher
from engine.search.winchance import logistic, proven_score, win_probability_to_cp
from protocol.game import Game
from protocol.games.hari.rules import HariGame
from protocol.messages import Info
from protocol.moves import Move

from . import montecarlo, search_core
from .candidates import candidates
from .race import contest_margin
from .settings import HariSettings
from .value import decided

WIN = 1000.0
"""Alpha-beta value of a won game (margins are at most 36 points)."""


def plays(game: HariGame, color: int) -> int:
    """Plays `color` can still make at most: its pieces not shorter than its last play, one a turn."""
    hand = game.hand(color)
    return sum(hand[n] for n in game.playable_lengths(color))


def plays_left(game: HariGame) -> int:
    """Plays both sides can still make at most (the end game's depth, before the closing passes)."""
    return plays(game, 0) + plays(game, 1)


def _terminal(game: HariGame, ply: int) -> float:
    result = game.result()
    assert result is not None, "only finished games are valued this way"
    me = game.turn
    margin = result.scores[me] - result.scores[1 - me]
    if result.winner is None:
        return 0.0
    return float((WIN - ply + margin) if result.winner == me else -(WIN - ply - margin))


def _evaluate(game: HariGame) -> float:
    """A leaf's value: the packing race with upgrades, for the side to move."""
    return float(contest_margin(game, game.turn, upgrades=True))


def alpha_beta(game: HariGame, ctx: SearchContext[HariSettings], tie_seed: int = 0) -> tuple[Move, Info]:
    """Alpha-beta toward the game's end over candidates at every ply, in the C core when it was built.

    A search that reaches the game's end over its candidates before its time is up searches
    again over more candidates (HariSettings.widths), as long as the result is not proven:
    a win or loss over a pruned list of replies is an estimate. Only decided() proves one. The C core
    breaks ties between equal leaf values by `tie_seed` (drawn from the engine's Seed)."""
    settings = ctx.settings
    depth = plays_left(game) + 2  # + the two closing passes
    verdict = decided(game)

    def info_of(result: ABResult) -> Info:
        p = logistic(result.value / settings.margin_scale)
        info = Info(depth=result.depth, score_cp=win_probability_to_cp(p), pv=[str(m) for m in result.pv])
        if verdict is not None:
            info.score_cp, info.wdl = proven_score(verdict)
        return info

    result: ABResult | None = None
    for root_per_length, inner_per_length in settings.widths:
        found = _search(game, ctx, root_per_length, inner_per_length, depth, verdict is not None, info_of, tie_seed)
        if found.depth == 0:  # the only candidate
            return found.move, Info(depth=1, pv=[str(found.move)])
        through = found.complete and found.depth >= depth
        if result is None or through:
            result = found
        if not through or verdict is not None or ctx.tm.soft_expired():
            break
    assert result is not None
    return result.move, info_of(result)


def _search(game: HariGame, ctx: SearchContext[HariSettings], root_per_length: int, inner_per_length: int,
            depth: int, stop_when_decided: bool, info_of: Callable[[ABResult], Info], tie_seed: int) -> ABResult:
    """One iterative-deepening search over these candidates: the C core's, else the Python one."""
    if search_core.AVAILABLE:
        return search_core.alpha_beta(game, ctx, root_per_length, inner_per_length, depth, stop_when_decided, info_of,
                                 tie_seed)
    s = ctx.settings
    moves = candidates(game, root_per_length, s.scarce, s.slide_max, s.blocks, s.place_blocks)
    if len(moves) == 1:
        return ABResult(moves[0], 0.0, 0, [moves[0]])
    ab = AlphaBeta(ctx, lambda g, ply: candidates(g, inner_per_length, s.scarce, s.slide_max, s.inner_blocks,
                                                  s.inner_place_blocks),
                   _evaluate, _terminal, WIN,
                   key=HariGame.search_key, check_every=1)  # a node costs 0.1-1 ms: look at the clock at each
    return ab.iterate_reported(game, moves, depth, info_of)


class HariSearcher:
    """HARI's searcher for the driver (engine/search/searcher.py)."""

    defaults = HariSettings()
    settings_type = HariSettings

    def moves_left(self, game: Game) -> int:
        """Plays the side to move still has (one piece a turn), for the clock."""
        return max(1, plays(_hari(game), game.turn))

    def choose(self, game: Game, ctx: SearchContext[HariSettings], rng: random.Random) -> tuple[Move, Info]:
        hari = _hari(game)
        if search_core.AVAILABLE or plays_left(hari) <= ctx.settings.endgame_plies:
            return alpha_beta(hari, ctx, rng.getrandbits(64) | 1)
        return montecarlo.choose(hari, ctx, rng)


def _hari(game: Game) -> HariGame:
    if not isinstance(game, HariGame):
        raise TypeError(f"HARI's searcher was given a {type(game).__name__}")
    return game


SEARCHER: Searcher[HariSettings] = HariSearcher()
"""The game's searcher, as GameParts.standard loads it."""
