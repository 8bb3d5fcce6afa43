"""MultiPV (SPEC 9.3, 9.5): with `setoption name MultiPV value k` a search reports its k best lines,
`info multipv 1..k`, best first, the move played being line 1's; with 1 (the default) nothing
changes. The search's trees (C and Python) and alpha-beta keep their lines; the partners made of
playouts give theirs as far as they have them. HARI's alpha-beta reports between its iterations too.
"""

from __future__ import annotations

import random
import threading

import pytest

from engine.games.hari import search_core as hari_core
from engine.games.hari.settings import HariSettings
from engine.search import context as context_module
from engine.search.context import SearchContext
from engine.search.limits import Limits
from engine.search.timeman import TimeManager
from protocol import game_from_position
from protocol.messages import Info, parse_info
from tests.support.inprocess_engine import InProcessEngine

HARI_MIDDLE = "hari h1h4,b3b6,e3e6,f3f5,a4a7,c5c9/g0g3,a2d2,g4g7,d7d9,h7h9 333355667/333555667 d -"
POSITIONS = {
    "hari": f"fen {HARI_MIDDLE}",
    "isaac": "startpos moves a0g0 b1b7",
    "foundations": "startpos moves h5h7 b9d9 g6g8 g9i9",
}
"""`position` commands' arguments."""


def final_lines(game: str, position: str, strategy: str, multipv: int, go: str) -> tuple[list[Info], str]:
    """The info lines of the last report before `bestmove` (those with `multipv`, or the last one) and the move."""
    engine = InProcessEngine()
    try:
        for line in (f"setoption name UCI_Variant value {game}", f"setoption name Strategy value {strategy}",
                     "setoption name OwnBook value false", f"setoption name MultiPV value {multipv}",
                     f"position {position}", go):
            engine.send(line)
        _, best = engine.wait_for(lambda text: text.startswith("bestmove"), timeout=60)
        assert not [text for _, text in engine.sink.lines if "error" in text]
        lines = [text for _, text in engine.sink.lines if text.startswith("info") and " pv " in text]
    finally:
        engine.close()
    infos = [parse_info(text) for text in lines]
    last: list[Info] = []
    for info in infos:   # the final report: the last run of multipv 1, 2, ...
        if info.multipv in (None, 1):
            last = [info]
        elif last and info.multipv == len(last) + 1:
            last.append(info)
    return last, best.split()[1]


@pytest.mark.parametrize("game", ["hari", "isaac", "foundations"])
def test_search_reports_its_three_best_lines_and_plays_the_first(game):
    lines, best = final_lines(game, POSITIONS[game], "search", 3, "go nodes 150000")   # the tree widens with time
    assert [line.multipv for line in lines] == [1, 2, 3], lines
    firsts = [line.pv[0] for line in lines]
    assert len(set(firsts)) == 3 and firsts[0] == best
    assert all(line.score_cp is not None and -100 <= line.score_cp <= 100 for line in lines)


@pytest.mark.parametrize("strategy", ["fastmc", "flatmc"])
def test_the_playout_partners_give_their_best_candidates_as_lines(strategy):
    lines, best = final_lines("hari", POSITIONS["hari"], strategy, 3, "go nodes 3000")
    assert [line.multipv for line in lines] == [1, 2, 3], lines
    assert lines[0].pv[0] == best and len({line.pv[0] for line in lines}) == 3
    assert all(line.score_cp is not None for line in lines)


def test_multipv_1_is_the_output_of_before():
    lines, best = final_lines("hari", POSITIONS["hari"], "search", 1, "go nodes 20000")
    assert len(lines) == 1 and lines[0].multipv is None and lines[0].pv[0] == best


def test_the_option_is_1_to_16():
    engine = InProcessEngine()
    try:
        for value in ("0", "17", "x"):
            engine.send(f"setoption name MultiPV value {value}")
            _, error = engine.wait_for(lambda text: text.startswith("info string error"))
            assert "MultiPV" in error or "multipv" in error.lower(), error
        engine.send("uci")
        _, spec = engine.wait_for(lambda text: text.startswith("option name MultiPV"))
        assert spec == "option name MultiPV type spin default 1 min 1 max 16"
    finally:
        engine.close()


def test_the_final_report_puts_the_move_played_first():
    """Line 1 is the move played even when the searcher's lines rank another first (a search cut short
    answers its previous best); a line beginning with the same move is not repeated."""
    sent: list[Info] = []
    ctx = SearchContext(TimeManager(Limits(), threading.Event()), sent.append, None, multipv=3)
    ctx.lines = lambda count: [Info(pv=["a0a2", "b0b2"]), Info(pv=["c0c2"]), Info(pv=["d0d2"])][:count]
    ctx.final_report(Info(depth=4, pv=["c0c2", "e0e2"]))
    assert [(i.multipv, i.pv[0]) for i in sent] == [(1, "c0c2"), (2, "a0a2"), (3, "d0d2")]
    assert all(i.time is not None and i.nodes is not None for i in sent)


def test_hari_alpha_beta_reports_between_its_iterations(monkeypatch):
    """The C alpha-beta hands its node count to the reporting every few hundred nodes: a report goes out
    whenever its interval has passed, not only when an iteration ends (HARI's iterations can take
    seconds). Every report here (interval 0) carries the last iteration's line and more nodes."""
    if not hari_core.AVAILABLE:
        pytest.skip("HARI's search core is not compiled here")
    monkeypatch.setattr(context_module, "REPORT_INTERVAL_MS", 0)
    game = game_from_position(HARI_MIDDLE)
    sent: list[Info] = []
    tm = TimeManager(Limits(nodes=60_000), threading.Event())
    ctx = SearchContext(tm, sent.append, HariSettings())
    from engine.games.hari.search import alpha_beta
    alpha_beta(game, ctx, random.Random(1).getrandbits(64) | 1)
    depths = [i.depth for i in sent]
    assert len(sent) > 2 * len(set(depths)), depths   # many reports within each iteration
    nodes = [i.nodes for i in sent]
    assert nodes == sorted(nodes) and nodes[-1] <= 60_000
    assert all(i.pv for i in sent)


def _foundations_middle():
    game = game_from_position("foundations -/- 333334444555667/333334444555667 d -")
    for move in ("h5h7", "b9d9", "g6g8", "g9i9"):
        game.play(move)
    return game


def test_a_trees_lines_are_its_most_visited_root_moves_the_first_its_own_line():
    """The C tree (engine/search/native/_tree.h's lines()) and mcts.py's MCTS.lines: the most visited root
    moves, best first, each followed by its most visited line; the first is info()'s line."""
    from engine.games.foundations import search_core
    from engine.games.foundations.search import SEARCHER, FoundationsKnowledge
    from engine.search.ctree import tree_info, tree_lines
    from engine.search.mcts import MCTS

    game = _foundations_middle()
    settings = SEARCHER.defaults
    knowledge = FoundationsKnowledge(settings)
    root = knowledge.candidates(game)
    views = []
    if search_core.AVAILABLE:
        tree = search_core.new_tree(game, root, settings, 3)
        tree.run(3000, 0, 0.0, 0.0, 0)
        views.append((tree_info(tree, search_core.move_of, True), tree_lines(tree, search_core.move_of, 4)))
    ctx = SearchContext(TimeManager(Limits(), threading.Event()), None, settings)
    mcts = MCTS(game.copy(), knowledge, ctx, random.Random(3), settings.mcts, root_moves=root)
    for _ in range(1500):
        mcts.simulate()
    views.append((mcts.info(), mcts.lines(4)))
    for info, lines in views:
        assert len(lines) == 4
        assert lines[0].pv == info.pv and lines[0].score_cp == info.score_cp
        assert [line.visits for line in lines] == sorted((line.visits for line in lines), reverse=True)
        assert len({line.pv[0] for line in lines}) == 4
