"""`isaac-referee check`: passes for correct engines, and names the fault for broken ones."""

from __future__ import annotations

import json
import sys

import pytest

import protocol
from referee.check import CheckReport, CheckResult, Status, Tier, make_positions, run_check
from referee.engines.process import live_engine_groups
from tests.support.paths import BAD_ENGINES, MINIMAL_ENGINE, REPO

pytestmark = pytest.mark.slow

ENGINES = BAD_ENGINES
ROOT = REPO
FAST = dict(timeout=2.0, start_timeout=5.0, stop_ms=400)


def check(script: str, **kw) -> CheckReport:
    report = run_check([sys.executable, str(ENGINES / f"{script}.py")], **{**FAST, **kw})
    assert live_engine_groups() == set(), "the check left an engine running"
    return report


def by_name(report: CheckReport) -> dict[str, CheckResult]:
    return {r.name: r for r in report.results}


def failed(report: CheckReport) -> dict[str, str]:
    return {r.name: r.detail for r in report.results if r.status == "FAIL"}


def test_good_random_conforms():
    report = check("good_random", options={"Seed": "7"})
    assert report.ok, report.render()
    results = by_name(report)
    for game in protocol.GAME_NAMES:
        assert results[f"{game}: go perft 2 (start)"].status == "PASS"
        assert results[f"{game}: go perft 1 (mid-game)"].status == "PASS"
        assert results[f"{game}: moves"].status == "PASS"
        assert results[f"{game}: bestmove (none) when over"].status == "PASS"
    assert results["options from the command line"].detail == "Seed=7"
    assert results["stop during go infinite"].status == "PASS"
    assert results["quit"].status == "PASS"
    text = report.render()
    assert "good_random" in text.splitlines()[0] and "the engine conforms" in text.splitlines()[-1]
    assert json.loads(json.dumps(report.to_json()))["ok"] is True


def test_builtin_engine_conforms():
    assert (ROOT / "engine" / "__main__.py").exists(), "python -m engine is part of the project"
    report = run_check([sys.executable, "-m", "engine"], cwd=str(ROOT), options={"Strategy": "random"}, **FAST)
    assert report.ok, report.render()
    assert report.engine_name


def test_engine_that_exits_at_startup_fails_the_first_check():
    report = check("exit_at_startup")
    assert not report.ok and len(report.results) == 1
    assert report.results[0].name == "start-up" and "exit code 3" in report.results[0].detail
    assert "cannot load weights" in report.results[0].detail
    assert "DOES NOT CONFORM" in report.render()


def test_engine_without_uciok_fails_start_up():
    report = check("no_uciok", start_timeout=0.5)
    assert failed(report) == {"start-up": "timed out after 0.5 s waiting for 'uci' to be answered by 'uciok' "
                                          "(last output: 'id name no_uciok')"}


def test_wrong_perft_is_found_with_the_missing_move():
    report = check("wrong_perft", games=("foundations",))
    fails = failed(report)
    assert set(fails) >= {"foundations: go perft 1 (start)", "foundations: go perft 2 (start)"}
    last = str(list(protocol.new_game("foundations").legal_moves())[-1])
    assert f"1 legal moves missing (e.g. {last})" in fails["foundations: go perft 1 (start)"]
    assert "Nodes searched: 599, expected 600" in fails["foundations: go perft 1 (start)"]
    assert by_name(report)["foundations: go from startpos"].status == "PASS"


def test_silent_errors_fail_every_bad_input_check():
    report = check("silent_errors", games=("isaac",))
    fails = failed(report)
    bad = [name for name in fails if name.startswith("bad input")]
    assert len(bad) == 9 and all(fails[n].startswith("no 'info string error: ...' answer") for n in bad)
    assert by_name(report)["isaac: go perft 2 (start)"].status == "PASS"


def test_illegal_mover_fails_go_after_moves_with_the_rule():
    report = check("illegal_move", games=("isaac",))
    detail = failed(report)["isaac: go after moves"]
    assert "illegal move" in detail and "overlaps" in detail


def test_ignored_stop_fails_and_the_engine_is_restarted_for_the_rest():
    report = check("ignores_stop", games=("hari",), timeout=0.5)
    fails = failed(report)
    assert "timed out after 0.5 s waiting for 'bestmove'" in fails["stop during go infinite"]
    assert "isready during go infinite" in fails
    assert by_name(report)["quit"].status == "PASS"


def test_engine_ignoring_quit_fails_quit_and_is_still_cleaned_up():
    report = check("spawn_child", games=("isaac",), timeout=0.5)
    assert failed(report) == {"quit": "still running 0.5 s after 'quit'"}


def test_positions_are_reproducible_and_useful():
    for game in protocol.GAME_NAMES:
        a, b = make_positions(game, 3), make_positions(game, 3)
        assert a == b
        mid = a.game_at(a.mid)
        assert not mid.is_over() and 2 <= mid.count_legal_moves() <= 5000
        if a.forced_pass:
            forced = protocol.game_from_position(a.forced_pass)
            assert [str(m) for m in forced.legal_moves()] == ["pass"]


@pytest.mark.parametrize("game_type", ["isaac", "foundations", "hari"])
def test_illegal_move_probe_is_really_illegal(game_type):
    from protocol import IllegalMoveError, new_game
    from referee.check import illegal_repeat

    move = illegal_repeat(game_type)
    game = new_game(game_type)
    game.play(move)
    with pytest.raises(IllegalMoveError):
        game.play(move)


@pytest.mark.parametrize("game_type", ["isaac", "foundations", "hari"])
def test_late_perft_position_is_past_the_start(game_type):
    from referee.check import make_positions

    pos = make_positions(game_type, seed=1)
    assert pos.late > 0 and pos.game_at(pos.late).count_legal_moves() >= 2


# -- tiers -------------------------------------------------------------------------------

MINIMAL = MINIMAL_ENGINE


def test_minimal_engine_passes_the_required_tier_only(capsys):
    """Handshake, isready, position, go, bestmove, quit and nothing else: fit for tournaments."""
    report = run_check([sys.executable, str(MINIMAL)], games=("isaac",), timeout=0.5, start_timeout=5.0,
                       stop_ms=400)
    assert live_engine_groups() == set()
    assert report.ok and not report.conforms, report.render()
    assert (report.verdict(Tier.REQUIRED), report.verdict(Tier.RECOMMENDED)) == (Status.PASS, Status.FAIL)
    required = {r.name for r in report.tier_results(Tier.REQUIRED)}
    assert {"start-up", "option UCI_Variant", "isready", "isaac: go from startpos", "isaac: go after moves",
            "quit"} <= required
    fails = failed(report)
    assert fails["id name"] == "no 'id name ...' line before uciok"
    assert "perft not supported" in fails["isaac: go perft 1 (start)"]
    assert fails["bad input: unknown command"].startswith("no 'info string error: ...' answer")
    assert fails["stop during go infinite"].startswith("the search ended by itself before 'stop'")
    assert by_name(report)["isaac: steps"].status == "SKIP"
    text = report.render()
    assert "required: PASS" in text and "recommended: FAIL" in text
    assert "the engine can play in tournaments" in text.splitlines()[-1]
    data = report.to_json()
    assert data["ok"] is True and data["conforms"] is False
    assert data["tiers"]["required"]["verdict"] == "PASS" and data["tiers"]["recommended"]["FAIL"] >= 5


def test_check_command_exits_0_when_the_required_tier_passes(capsys):
    from referee.cli import main

    code = main(["check", "--game", "foundations", "--timeout", "0.5", "--json", sys.executable, str(MINIMAL)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["tiers"]["required"]["verdict"] == "PASS"
    assert data["tiers"]["recommended"]["verdict"] == "FAIL"
    assert {r["tier"] for r in data["results"]} == {"required", "recommended"}


def test_a_required_failure_is_exit_1(capsys):
    from referee.cli import main

    assert main(["check", "--timeout", "0.5", sys.executable, str(ENGINES / "exit_at_startup.py")]) == 1
    assert "required: FAIL" in capsys.readouterr().out


def test_malformed_option_line_costs_the_option_in_player_and_check_alike():
    """One client reads the handshake for both: the bad line is dropped, the engine still plays."""
    import asyncio

    from referee.engines.player import EnginePlayer
    from referee.engines.process import EngineSpec

    cmd = [sys.executable, str(ENGINES / "malformed_option.py")]

    async def start_player():
        player = EnginePlayer(EngineSpec("m", cmd), start_timeout=5.0)
        try:
            await player.start()
            await player.new_game("hari")
            return sorted(player.options)
        finally:
            await player.quit()

    assert asyncio.run(start_player()) == ["seed", "uci_variant"]
    report = check("malformed_option", games=("isaac",), perft_depth=1)
    assert report.ok and by_name(report)["start-up"].detail.endswith("2 options")
    bad = by_name(report)["output well-formed"]
    assert (bad.status, bad.tier) == (Status.FAIL, Tier.RECOMMENDED)
    assert bad.detail.startswith("1 malformed line(s): option Threads: min") and "'one'" in bad.detail


def test_wrong_gui_answers_fail_the_recommended_tier_only():
    report = check("wrong_gui_answers", games=("isaac",), perft_depth=1)
    fails = failed(report)
    assert fails["isaac: state"].startswith("position: 'isaac -/- ")
    assert fails["isaac: steps"] == "1 completing options are not legal moves (e.g. z9z9)"
    assert {r.tier for r in report.results if r.status == Status.FAIL} == {Tier.RECOMMENDED}
    assert report.ok and not report.conforms
