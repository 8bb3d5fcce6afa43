"""Sound scores (SPEC 9.5): `score cp +-100` only for a proven result; a win or loss found over pruned
candidates is an estimate (at most +-99), and does not stop the search while time is left."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

import pytest

from engine.games.hari import search_core as native
from engine.games.hari.search import SEARCHER as HARI
from engine.games.hari.settings import HariSettings
from engine.games.hari.value import decided
from engine.search.alphabeta import AlphaBeta
from engine.search.mcts import MCTS, MCTSSettings
from engine.search.winchance import proven_score, win_probability_to_cp
from engine.strategies import Limits
from engine.strategies.search_strategy import SearchStrategy
from protocol import game_from_position, new_game
from protocol.messages import Info
from protocol.moves import PASS, HariMove
from tests.support.search import context

HARI_ENDGAME = ("hari a0d0,g1j1,b3d3,e3g3,b5e5,a6c6,d6h6,b7d7,e7h7,a8e8,a9c9/f0j0,a1c1,d1f1,a2c2,e2h2,h3j3,a4c4,"
                "d4g4,g5j5,g8j8,e9i9 5667/5667 d -")
"""Dark to move, 8 plays left: its search over candidates sees a loss in every line."""


def test_estimates_stop_short_of_certainty():
    assert win_probability_to_cp(1.0) == 99 and win_probability_to_cp(0.0) == -99
    assert win_probability_to_cp(0.5) == 0 and win_probability_to_cp(0.75) == 50
    assert proven_score(1) == (100, (1000, 0, 0))
    assert proven_score(-1) == (-100, (0, 0, 1000))
    assert proven_score(0) == (0, (0, 1000, 0))


# -- alpha-beta on a game small enough to write here ---------------------------------------------

@dataclass
class Race:
    """A two-player count-down: a move takes 1 or 2 from the pile; who takes the last wins. `cut` marks
    the moves ending the game at once (a pile of 0 after the move)."""

    pile: int
    turn: int = 0
    history: list[int] = field(default_factory=list)
    name: str = "race"

    def is_over(self) -> bool:
        return self.pile <= 0

    def push(self, take: int) -> None:  # type: ignore[override]
        self.history.append(take)
        self.pile -= take
        self.turn = 1 - self.turn

    def pop(self) -> None:
        self.pile += self.history.pop()
        self.turn = 1 - self.turn


def _race_search(pile: int, max_depth: int, **limits: object):
    game = Race(pile)
    ctx = context(None, **limits)
    win = 100.0

    def terminal(g: Race, ply: int) -> float:  # the side to move at a game end has lost
        return -(win - ply)

    ab = AlphaBeta(ctx, lambda g, ply: [2, 1] if g.pile >= 2 else [1], lambda g: 0.0, terminal, win)  # type: ignore
    return ab.iterate(game, [2, 1] if pile >= 2 else [1], max_depth), ctx  # type: ignore[arg-type]


def test_a_root_move_that_ends_the_game_won_is_a_proof():
    result, _ = _race_search(2, max_depth=10)
    assert result.move == 2 and result.proven and result.depth == 1  # a proof ends the search at once


def test_a_win_further_down_is_an_estimate_and_the_search_goes_on():
    result, ctx = _race_search(4, max_depth=9)
    assert result.value >= 50 and not result.proven  # wins (4 -> 1 -> ... ) but not a proof at the root
    assert result.depth == 9  # it did not stop at the first depth that saw the win


# -- MCTS ------------------------------------------------------------------------------------------

def test_mcts_claims_a_win_only_when_its_best_move_ends_the_game_won():
    game = new_game("foundations")
    settings = MCTSSettings()

    class Flat:
        uses_playouts = False

        def candidates(self, g):
            return [(m, 1.0) for m in list(g.legal_moves())[:3]]

        def leaf_value(self, g, rng, ctx):
            return 0.999 if g.turn == 0 else 0.001  # Dark "surely" wins, by an estimate

        def terminal_value(self, g, color):
            return 1.0

    tree = MCTS(game, Flat(), context(None, infinite=True), random.Random(1), settings,
                root_moves=[(m, 1.0) for m in list(game.legal_moves())[:3]])
    for _ in range(30):
        tree.simulate()
    info = tree.info()
    assert info.score_cp == 99 and info.wdl is None  # a "sure" estimate stays an estimate
    best = tree.root.children[tree.best_index()]
    best.terminal, best.outcome = True, 1  # as if that move had ended the game, won
    assert (tree.info().score_cp, tree.info().wdl) == (100, (1000, 0, 0))
    best.outcome = 0  # a drawn end is no proof of the position's value: other moves may win
    assert tree.info().wdl is None and abs(tree.info().score_cp) <= 99


# -- HARI ----------------------------------------------------------------------------------------------

SETTLED = "hari h2h8/b2b5,a6e6,a9f9 33333444455566/333334445567 l d"
"""Dark played its 7 (nothing left it may play) and passed with 6 on the board; Light, to move, has 9."""


def test_hari_decided_needs_the_board_to_settle_it():
    assert decided(new_game("hari")) is None
    assert decided(game_from_position(HARI_ENDGAME)) is None  # either side may still overtake
    assert decided(game_from_position(SETTLED)) == 1


def _keeping(game):
    """A move that slides nothing (the discard of the shortest playable piece): the settled winner's way
    to keep its board value."""
    lengths = game.playable_lengths(game.turn)
    return HariMove((), None, lengths[0]) if lengths else PASS


@pytest.mark.parametrize("seed", range(4))
def test_hari_decided_is_borne_out_whatever_the_loser_plays(seed):
    """Whenever decided() says a side has won, that side wins by never sliding, whatever the other
    side plays (here: at random, slides off the board included)."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(12):
        game = new_game("hari")
        while not game.is_over():
            verdict = decided(game)
            if verdict is not None:
                winner = game.turn if verdict > 0 else 1 - game.turn
                for _ in range(2):
                    line = 0
                    while not game.is_over():
                        game.push(_keeping(game) if game.turn == winner else game.random_move(rng))
                        line += 1
                    assert game.result().winner == winner, game.position()
                    for _ in range(line):
                        game.pop()
                checked += 1
            game.push(game.random_move(rng))
    assert checked >= 4


def test_hari_reports_a_loss_over_candidates_as_an_estimate_and_searches_on():
    """The narrowest candidates see a loss in every line at once; that is no proof: the search goes on
    over wider candidates (more nodes than the narrow search alone) and reports an estimate."""
    game = game_from_position(HARI_ENDGAME)
    assert decided(game) is None
    narrow = context(HariSettings(widths=((16, 10),)), nodes=200_000)
    _, narrow_info = HARI.choose(game.copy(), narrow, random.Random(1))
    ctx = context(HariSettings(), nodes=200_000)
    move, info = HARI.choose(game.copy(), ctx, random.Random(1))
    assert game.check_move(move) == move
    for said in (narrow_info, info):
        assert said.score_cp is not None and -99 <= said.score_cp < 0 and said.wdl is None
    assert ctx.tm.nodes > narrow.tm.nodes


def test_hari_claims_certainty_when_the_bound_proves_it():
    game = game_from_position(SETTLED)
    infos: list[Info] = []
    move = SearchStrategy().choose(game.copy(), Limits(nodes=5000), threading.Event(), infos.append,
                                   random.Random(1))
    assert game.check_move(move) == move
    assert (infos[-1].score_cp, infos[-1].wdl) == (100, (1000, 0, 0))


def test_the_core_is_there_for_these_tests():
    assert native.AVAILABLE

