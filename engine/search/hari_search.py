"""HARI move choice: ``choose`` runs iterative-deepening alpha-beta toward the end of the game
(``choose_endgame``) at every move in the C core (engine/search/hari_native.py) when it was
built. Without it: flat Monte Carlo over the heuristic's candidates (engine/search/hari_mc.py),
and the same alpha-beta in Python once at most ENDGAME_PLIES plays are left (the SPEC 9.10 rows).

The rest of this module holds the earlier searches, kept as in-process baselines for A/B
runs (benchmarks/ab_inprocess.py): ``choose_ab`` (359c964: iterative-deepening alpha-beta
over built candidates, leaves judged by the packing race of engine/search/hari_eval.py) and
``choose_mcts`` (ffbb6c3: MCTS with priors and playouts). Its slide candidates and playout
policy are used by ``choose`` and by the `heuristic` and `flatmc` sparring partners. The
description of ffbb6c3's MCTS knowledge follows.

A HARI position can have 400,000 moves (every subset of slides times every
play), so a node's candidates are built, not enumerated:

- plays without slides (the first slide set of ``slide_sets()`` is the empty
  one): for each playable length its snuggest placements, and its discard;
- one own piece slid (along its line, possibly off the board) to make room,
  followed by a placement that uses the freed cells: only when the value
  budget allows it (the played piece is worth at least the piece slid).

Every built move is checked with ``check_move`` before the search may play it,
so the rules stay in protocol/hari.py.

What the heuristic knows: the score is the value on the board at the end; a
long piece is worth more per cell (7 cells hold 6 points, 3 cells only 1), but
plays are non-decreasing, so playing a length kills the shorter pieces still
in hand; space is shared, so a snug placement (few free neighbours, no dead
cells) keeps room for our own later, longer pieces, and sliding our pieces
together makes room for them. Leaves are valued by playouts where both sides
play their shortest playable piece snugly (sliding one piece when nothing
fits, else discarding).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from protocol.board import (
    ALL_CELLS,
    VALUE,
    Segment,
    iter_placements,
)
from protocol.errors import IllegalMoveError
from protocol.hari import HariGame, slide_ends
from protocol.messages import Info
from protocol.moves import PASS, HariMove, Move, Slide

from . import hari_native
from .alphabeta import ABResult, AlphaBeta
from .context import SearchContext, logistic, win_probability_to_cp
from .hari_eval import ROOT_PER_LENGTH, contest_margin, touching, worth_sliding
from .hari_eval import candidates as hari_candidates
from .mcts import PlayoutKnowledge, Scored, run_mcts
from .space import NEIGHBOURS, dead_cells, first_fit, pack_value, spread_fit

PLAYOUT_PLIES = 40
MARGIN_SCALE = 6.0
WDL_WEIGHT = 0.7
PER_LENGTH = 10
"""Placements kept per length (the snuggest ones)."""
SLIDE_CANDIDATES = 24


def _plays(game: Any, color: int) -> int:
    """Plays `color` can still make at most: its pieces not shorter than its last play, one a turn."""
    hand = game.hand(color)
    return sum(hand[n] for n in game.playable_lengths(color))


def moves_left(game: Any) -> int:
    """Plays the side to move still has (one piece a turn), for the clock."""
    return max(1, _plays(game, game.turn))


def terminal_value(game: Any, color: int) -> float:
    """1/0.5/0 for `color`, blended with the board-value margin (a bigger win is a safer one)."""
    result = game.result()
    scores = result.scores
    margin = scores[color] - scores[1 - color]
    wdl = 0.5 if result.winner is None else (1.0 if result.winner == color else 0.0)
    return WDL_WEIGHT * wdl + (1 - WDL_WEIGHT) * (0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE))


def _play_score(game: Any, me: int, n: int, seg: Segment | None, empty_after: int, lengths: Sequence[int],
                hand: Sequence[int], opp_next: list[int], quick: bool = False) -> float:
    """Heuristic worth of playing length n (placed on seg, or discarded if seg is None).

    `quick` leaves out the packing estimates (inner tree nodes: cheaper expansions)."""
    killed = sum(VALUE[k] * hand[k] for k in lengths if k < n)
    score = -1.0 * killed
    if seg is None:
        return score - 2.5 * VALUE[n] - 1.0
    score += 1.2 * VALUE[n]
    score -= 0.3 * (NEIGHBOURS[seg.index] & empty_after).bit_count()
    if quick:
        return score
    rest = [k for k in lengths if k >= n for _ in range(hand[k] - (1 if k == n else 0))]
    if rest:
        score -= 0.12 * dead_cells(empty_after, rest[0])
        value, _ = pack_value(empty_after, rest)
        score += 0.5 * value
    if opp_next:
        score -= 0.15 * pack_value(empty_after, opp_next)[0]
    return score


INNER_PER_LENGTH = 4
"""Placements kept per length at inner tree nodes (quick guesses)."""
QUICK_INNER = True


def candidate_moves(game: Any, quick: bool = False) -> Scored:
    """(move, prior weight) for the side to move, best first; [(PASS, 1)] when it must pass.

    `quick` (inner tree nodes): fewer placements per length, guessed without the
    packing estimates."""
    sets = game.slide_sets()
    base = next(sets, None)
    if base is None:
        return [(PASS, 1.0)]
    me = game.turn
    opp = 1 - me
    hand = game.hand(me)
    lengths = game.playable_lengths(me)
    opp_lengths = game.playable_lengths(opp)
    opp_hand = game.hand(opp)
    opp_next = [k for k in opp_lengths for _ in range(opp_hand[k])][:4]
    empty = base.empty
    scored: list[tuple[float, Move]] = []
    counts = {}
    for n in lengths:
        options = []
        for seg in iter_placements(empty, n):
            snug = (NEIGHBOURS[seg.index] & empty).bit_count()
            options.append((snug, seg.lo, seg))
        options.sort(key=lambda o: (o[0], o[1]))
        counts[n] = len(options)
        for _, _, seg in options[:INNER_PER_LENGTH if quick else PER_LENGTH]:
            after = empty & ~seg.mask
            scored.append((_play_score(game, me, n, seg, after, lengths, hand, opp_next, quick),
                           HariMove((), seg, 0)))
        scored.append((_play_score(game, me, n, None, empty, lengths, hand, opp_next, quick),
                       HariMove((), None, n)))
    scored.extend(_slide_candidates(game, me, empty, lengths, hand, counts, opp_next, quick))
    scored.sort(key=lambda kv: -kv[0])
    top = scored[0][0]
    return [(m, math.exp(s - top)) for s, m in scored]


SCARCE = 4
"""A length with fewer placements than this is worth sliding for."""


def _slide_candidates(game: Any, me: int, empty: int, lengths: list[int], hand: Any, counts: dict[int, int],
                      opp_next: list[int], quick: bool = False) -> list[tuple[float, Any]]:
    """One own piece slid to make room, then a placement using the freed cells (checked legal).

    Only for lengths that are scarce without slides: early on, when everything
    fits, sliding only costs flexibility."""
    needed = [n for n in lengths if counts[n] < SCARCE]
    if not needed:
        return []
    occupied = ALL_CELLS & ~empty
    out = []
    budget = VALUE[needed[-1]]
    for piece in game.pieces(me):
        if piece.value > budget:
            continue
        for end in slide_ends(piece, occupied):
            after_slide = (empty | piece.mask) & ~(end.mask if end else 0)
            lost = piece.value if end is None else 0
            for n in needed:
                if VALUE[n] < piece.value:
                    continue
                best = None
                for seg in touching(after_slide, n, piece):
                    if seg is piece:
                        continue
                    snug = (NEIGHBOURS[seg.index] & after_slide).bit_count()
                    if best is None or snug < best[0]:
                        best = (snug, seg)
                if best is None:
                    continue
                seg = best[1]
                after = after_slide & ~seg.mask
                score = _play_score(game, me, n, seg, after, lengths, hand, opp_next, quick) - 1.5 * lost
                score += 1.0 if counts[n] == 0 else -0.3
                out.append((score, HariMove((Slide(piece, end),), seg, 0)))
    out.sort(key=lambda kv: -kv[0])
    checked: list[tuple[float, Any]] = []
    for score, move in out:
        if len(checked) >= SLIDE_CANDIDATES:
            break
        try:
            checked.append((score, game.check_move(move)))
        except IllegalMoveError:
            continue
    return checked


PLAYOUT_SLIDE_TRIES = 24
PLAYOUT_SKIP = 0.1
"""Share of playout moves that play the second-shortest length (giving up the shorter pieces)."""


def playout_move(game: Any, rng: random.Random, skip: float | None = None, upgrades: bool = False,
                 spread: int = 0) -> Any:
    """Shortest playable piece placed snugly; else room made by one own slide (``slide_for_room``,
    with or without `upgrades`); else its discard.

    With chance `skip` (default PLAYOUT_SKIP) the second-shortest length is played instead.
    The snug spot is first_fit's (the top rows' snuggest), or with `spread` space.spread_fit's
    (the snuggest of about `spread` starts drawn anywhere; engine.search.hari_mc)."""
    me = game.turn
    lengths = game.playable_lengths(me)
    if not lengths or game.is_over():  # no slide set at all: the mover must pass
        return PASS
    empty = game.empty_cells()
    fit = (lambda e, n: spread_fit(e, n, rng, spread)) if spread else first_fit
    if len(lengths) > 1 and rng.random() < (PLAYOUT_SKIP if skip is None else skip):
        seg = fit(empty, lengths[1])
        if seg is not None:
            return HariMove((), seg, 0)
    seg = fit(empty, lengths[0])
    if seg is not None:
        return HariMove((), seg, 0)
    return slide_for_room(game, me, empty, lengths, rng, upgrades) or HariMove((), None, lengths[0])


def slide_for_room(game: Any, me: int, empty: int, lengths: list[int], rng: random.Random,
                   upgrades: bool = False) -> Any:
    """One own piece slid so that a playable length fits in the freed cells (PLAYOUT_SLIDE_TRIES
    (piece, end) options sampled at most); None if none.

    Without `upgrades` (the partners' playouts): along its line only, for the shortest
    length, a piece worth at most that length. With `upgrades` (engine.search.hari_mc):
    also off the board when the piece played is worth more than the piece slid off (HARI's
    end game is mostly these), for every playable length, the shortest first, and a slide
    along the line before one off."""
    targets = lengths if upgrades else lengths[:1]
    occupied = ALL_CELLS & ~empty
    options = [(piece, end) for piece in game.pieces(me) if piece.value <= VALUE[targets[-1]]
               for end in slide_ends(piece, occupied) if upgrades or end is not None]
    if len(options) > PLAYOUT_SLIDE_TRIES:
        options = rng.sample(options, PLAYOUT_SLIDE_TRIES)
    options.sort(key=lambda o: o[1] is None)  # along the line first: nothing is lost
    for n in targets:
        for piece, end in options:
            if not worth_sliding(piece, end is None, n):
                continue
            after = (empty | piece.mask) & ~(end.mask if end is not None else 0)
            seg = next(touching(after, n, piece), None)
            if seg is None:
                continue
            try:
                return game.check_move(HariMove((Slide(piece, end),), seg, 0))
            except IllegalMoveError:
                continue
    return None


class HariKnowledge(PlayoutKnowledge):
    playout_plies = PLAYOUT_PLIES

    def candidates(self, game: Any) -> Scored:
        return candidate_moves(game, quick=QUICK_INNER)

    def terminal_value(self, game: Any, color: int) -> float:
        return terminal_value(game, color)

    def playout_move(self, game: Any, rng: random.Random) -> Move:
        move: Move = playout_move(game, rng)
        return move

    def static_value(self, game: Any, color: int) -> float:
        """Win chance for `color` from the board values alone (a playout cut short)."""
        margin = game.board_value(color) - game.board_value(1 - color)
        return logistic(margin / MARGIN_SCALE)


def choose_mcts(game: Any, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    """ffbb6c3's search: MCTS with playouts (kept for comparison; see choose)."""
    return run_mcts(game, HariKnowledge(), ctx, rng, candidate_moves(game))


KEYED = True
"""The Python alpha-beta keeps a transposition table for the move (keyed by HariGame.search_key)."""
NATIVE = True
"""Run the end game's alpha-beta in the C core when it was built (hari_native)."""

WIN = 1000.0
"""Alpha-beta value of a won game (margins are at most 36 points)."""


def _ab_terminal(game: Any, ply: int) -> float:
    result = game.result()
    me = game.turn
    margin = result.scores[me] - result.scores[1 - me]
    if result.winner is None:
        return 0.0
    return float((WIN - ply + margin) if result.winner == me else -(WIN - ply - margin))


def _ab_evaluate(game: Any) -> float:
    """359c964's leaf value: the packing race without slides."""
    return float(contest_margin(game, game.turn))


def _endgame_evaluate(game: Any) -> float:
    """The end game's leaf value: the packing race with upgrades (engine.search.hari_eval)."""
    return float(contest_margin(game, game.turn, upgrades=True))


def _ab_info(result: ABResult) -> Info:
    p = logistic(result.value / MARGIN_SCALE)
    return Info(depth=result.depth, score_cp=win_probability_to_cp(p), pv=[str(m) for m in result.pv])


ENDGAME_PLIES = 8
"""At most this many plays left in both hands together: alpha-beta toward the end instead of Monte Carlo.
In-process, 200 games each against none (100 ms, book): 6 58.5%, 8 61.5%, 10 46.8%, 12 39.5%. In 75 ms it
reaches depth 4 or 5 from 7 to 9 plays left, depth 3 or 4 from 10 to 12 (measured 2026-11-25 on 43 positions
from the book played on by `heuristic`), so the leaves are mostly valued by the packing race: with upgrades
(_endgame_evaluate) 10 scored 47.0% against 8 (400 games, in-process)."""


ENDGAME_ROOT_PER_LENGTH = 16
"""The end game's root tries the 16 snuggest placements of each playable length (hari_eval.candidates); the
plies below it the 10 of ROOT_PER_LENGTH. In-process (100 ms, shipped book, 400 games each) 16 at the root
scored 57.0% and 57.5% against 10; the plies below with 5 scored 42.8%, with 16 47.1% (against 10)."""


def plays_left(game: Any) -> int:
    """Plays both sides can still make at most (the end game's depth, before the closing passes)."""
    return _plays(game, 0) + _plays(game, 1)


def choose(game: Any, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    """Strategy search's HARI move: the C core's alpha-beta at every move when it was built (hari_native);
    else flat Monte Carlo over the heuristic's candidates (engine.search.hari_mc), and the Python alpha-beta
    once ENDGAME_PLIES plays are left."""
    if NATIVE and hari_native.AVAILABLE:
        return choose_endgame(game, ctx)
    if ENDGAME_PLIES and plays_left(game) <= ENDGAME_PLIES:
        return choose_endgame(game, ctx)
    from .hari_mc import choose as choose_mc
    return choose_mc(game, ctx, rng)


def choose_endgame(game: Any, ctx: SearchContext) -> tuple[Move, Info]:
    """Alpha-beta toward the game's end over hari_eval's root candidates (slides included) at every ply,
    ENDGAME_ROOT_PER_LENGTH placements a length at the root; in the C core when it was built
    (engine.search.hari_native: the same search, with a transposition table)."""
    if NATIVE and hari_native.AVAILABLE:
        return hari_native.choose_endgame(game, ctx, ENDGAME_ROOT_PER_LENGTH, ROOT_PER_LENGTH, plays_left(game) + 2,
                                          _ab_info)
    return _alpha_beta(game, ctx, hari_candidates(game, root=True, per_length=ENDGAME_ROOT_PER_LENGTH),
                       lambda g, ply: hari_candidates(g, root=True),
                       plays_left(game) + 2, _endgame_evaluate)  # + the two closing passes


def choose_ab(game: Any, ctx: SearchContext, rng: random.Random) -> tuple[Move, Info]:
    """359c964's search (kept as an in-process baseline for A/B runs): iterative-deepening
    alpha-beta over built candidates, leaves judged by the packing race.

    See engine.search.hari_eval: at 100 ms a move this reaches depth 2 (our move and
    the opponent's best answer) in most middle-game positions."""
    return _alpha_beta(game, ctx, hari_candidates(game, root=True), lambda g, ply: hari_candidates(g, root=False),
                       ctx.tm.depth_limit or 64, _ab_evaluate)


def _alpha_beta(game: Any, ctx: SearchContext, moves: list[Move], inner: Callable[[Any, int], Sequence[Move]],
                max_depth: int, evaluate: Callable[[Any], float]) -> tuple[Move, Info]:
    """Iterative-deepening alpha-beta over the root's candidate `moves`, `inner(game, ply)` below it,
    leaves valued by `evaluate`."""
    if len(moves) == 1:
        return moves[0], Info(depth=1, pv=[str(moves[0])])
    ab = AlphaBeta(ctx, inner, evaluate, _ab_terminal, WIN, key=HariGame.search_key if KEYED else None)
    ab.CHECK_EVERY = 1  # a node costs about 0.1-1 ms here: look at the clock at every one
    last: dict[str, Info | None] = {"info": None}

    def on_depth(res: ABResult) -> None:
        last["info"] = _ab_info(res)
        ctx.maybe_report()

    ctx.snapshot = lambda: last["info"]
    result = ab.iterate(game, moves, max_depth, on_depth)
    return result.move, _ab_info(result)
