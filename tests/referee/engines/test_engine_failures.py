"""Engines that misbehave, as real subprocesses: one bad engine per failure, each must end the
game with the exact termination and leave no process behind."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys

import pytest

import protocol
from protocol.board import DARK, LIGHT
from protocol.errors import IllegalMoveError
from referee.engines.player import EngineFailure, EnginePlayer, describe_exit
from referee.engines.process import EngineSpec, group_members, live_engine_groups
from referee.formats.record import TERMINATIONS, GameRecord
from referee.formats.timecontrol import TimeControl
from referee.matches.game_runner import GameSpec, play_game
from tests.support.paths import BAD_ENGINES, REPO

pytestmark = pytest.mark.slow

ENGINES = BAD_ENGINES
FAST = dict(start_timeout=2.0, ping_timeout=0.5, stop_grace=0.3, probe_interval=1.0,
            quit_grace=0.3, term_grace=0.3)


def engine_spec(script: str, *args: str, **kw) -> EngineSpec:
    return EngineSpec(script, [sys.executable, str(ENGINES / f"{script}.py"), *args], **kw)


def make_player(script: str, *args: str, spec_kw: dict | None = None, **kw) -> EnginePlayer:
    return EnginePlayer(engine_spec(script, *args, **(spec_kw or {})), **{**FAST, **kw})


def assert_group_gone(pgid: int) -> None:
    """Nothing of the group remains: no running process and no zombie."""
    assert group_members(pgid) == [], f"processes left in group {pgid}: {group_members(pgid)}"


async def _play(bad: EnginePlayer, bad_color: int, game: str, tc: str, **spec_kw):
    good = make_player("good_random")
    dark, light = (bad, good) if bad_color == DARK else (good, bad)
    fields = {"start_position": None, "opening": [], **spec_kw}
    spec = GameSpec(game_id=1, game_type=game, dark_tc=TimeControl.parse(tc), light_tc=TimeControl.parse(tc), **fields)
    try:
        record = await play_game(spec, dark, light)
        if record.termination not in ("normal", "adjudication"):
            assert not bad.alive
            if bad.process is not None and bad.process.pgid is not None:
                assert_group_gone(bad.process.pgid)   # killed by play_game itself, before we clean up
    finally:
        groups = [p.process.pgid for p in (dark, light) if p.process is not None and p.process.pgid]
        await dark.quit()
        await light.quit()
    for pgid in groups:
        assert_group_gone(pgid)
    assert live_engine_groups() == set()
    return record


def play(bad: EnginePlayer | str, bad_color: int = DARK, game: str = "isaac", tc: str = "movetime=300",
         **spec_kw) -> GameRecord:
    if isinstance(bad, str):
        bad = make_player(bad)
    record = asyncio.run(_play(bad, bad_color, game, tc, **spec_kw))
    json.dumps(record.to_json())
    assert GameRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert record.termination in TERMINATIONS
    return record


def loser_result(color: int) -> str:
    return "0-1" if color == DARK else "1-0"


def replay(record: GameRecord) -> protocol.Game:
    """Every recorded move must be legal in turn: the record is auditable."""
    game = protocol.game_from_position(record.start_position)
    for text in record.opening:
        game.play(text)
    for move in record.moves:
        game.play(move.move)
    return game


def test_describe_exit():
    assert describe_exit(3) == "exit code 3"
    assert describe_exit(-11) == "killed by signal 11 (SIGSEGV)"


# -- well-behaved engines ---------------------------------------------------------

@pytest.mark.parametrize("game", protocol.GAME_NAMES)
def test_good_engines_play_every_game_to_a_normal_end(game):
    logs = []
    bad = EnginePlayer(engine_spec("good_random", options={"Seed": "5"}), io_log=logs.append, **FAST)
    record = play(bad, DARK, game, tc="10+0.1")
    assert record.termination == "normal"
    final = replay(record)
    assert final.is_over() and final.position() == record.final_position
    result = final.result()
    assert record.result == result.text and record.final_scores == list(result.scores)
    assert record.reason == result.reason
    assert all(m.ms >= 0 and m.info and "nodes" in m.info for m in record.moves)
    assert record.time_control == {"dark": "10+0.1", "light": "10+0.1"}
    assert record.dark["options"] == {"Seed": "5"} and record.light["name"] == "good_random"
    assert ">good_random: uci" in logs and "<good_random: uciok" in logs
    assert any(line.startswith(">good_random: go p1time") for line in logs)


def test_opening_and_start_position_are_checked_and_recorded():
    game = protocol.new_game("foundations")
    rng = random.Random(4)
    game.play(game.random_move(rng))
    start = game.position()
    second = str(game.random_move(rng))
    record = play("good_random", DARK, "foundations", tc="10", start_position=start, opening=[second])
    assert record.start_position == start and record.opening == [second]
    assert record.termination == "normal"
    replay(record)
    with pytest.raises(ValueError, match="opening ply 1"):
        asyncio.run(play_game(GameSpec(1, "isaac", None, ["a0a9"], TimeControl(), TimeControl()),
                              make_player("good_random"), make_player("good_random")))


def test_ply_cap_adjudicates_a_draw():
    record = play("good_random", DARK, "isaac", tc="10", max_plies=4)
    assert (record.termination, record.result, len(record.moves)) == ("adjudication", "1/2-1/2", 4)


def test_stderr_without_end_neither_blocks_nor_bloats():
    bad = make_player("stderr_flood")
    record = play(bad, LIGHT, "foundations", tc="10")
    assert record.termination == "normal"
    tail = bad.stderr_tail()
    assert 0 < len(tail.encode()) <= 2048 and "still thinking" in tail


def test_resource_limits_are_applied_through_the_wrapper():
    record = play(make_player("good_random", spec_kw={"memory_mb": 1024, "cpu_seconds": 30}), DARK, "hari", tc="10")
    assert record.termination == "normal"


# -- misbehaving engines -------------------------------------------------------------

def test_exit_at_startup_is_a_start_failure_with_exit_code_and_stderr():
    record = play("exit_at_startup", LIGHT)
    assert (record.termination, record.result) == ("start failure", loser_result(LIGHT))
    assert record.reason.startswith("Light (exit_at_startup) exited during start-up (exit code 3; ")
    assert "exit code 3" in record.reason and "cannot load weights" in record.reason
    assert record.moves == [] and record.final_scores == []


def test_command_that_cannot_run_is_a_start_failure():
    bad = EnginePlayer(EngineSpec("ghost", ["/nonexistent/engine-binary"]), **FAST)
    record = play(bad, DARK)
    assert record.termination == "start failure" and "could not be started" in record.reason


def test_unknown_option_is_a_start_failure():
    bad = make_player("good_random", spec_kw={"options": {"Strategy": "greedy"}})
    record = play(bad, DARK)
    assert record.termination == "start failure" and "has no option 'Strategy'" in record.reason


def test_no_uciok_is_a_start_failure():
    bad = make_player("no_uciok", start_timeout=0.5)
    record = play(bad, DARK)
    assert record.termination == "start failure" and "uciok" in record.reason and "0.5 s" in record.reason


def test_hang_on_go_with_a_clock_is_a_stall():
    record = play("hang_on_go", DARK, tc="movetime=100")
    assert (record.termination, record.result) == ("stall", "0-1")
    assert "did not answer 'stop' or 'isready'" in record.reason


def test_hang_on_go_without_time_limit_is_found_by_isready_probe():
    bad = make_player("hang_on_go", probe_interval=0.3)
    record = play(bad, LIGHT, tc="depth=2")
    assert record.termination == "stall" and "'isready' during its search" in record.reason
    assert len(record.moves) == 1


def test_garbage_is_malformed_output():
    record = play("garbage", DARK)
    assert record.termination == "malformed output"
    assert "@@zz!!" in record.reason and "not notation" in record.reason


def test_illegal_move_names_the_move_and_the_rule():
    record = play("illegal_move", LIGHT, "isaac")
    assert (record.termination, record.result) == ("illegal move", "1-0")
    first = record.moves[0].move
    game = protocol.new_game("isaac")
    game.play(first)
    with pytest.raises(IllegalMoveError) as rule:
        game.parse_move(first)
    assert record.reason == f"Light (illegal_move) played illegal move {first}: {rule.value.reason}"
    assert len(record.moves) == 1


def test_bestmove_none_while_game_goes_on_is_illegal():
    record = play("none_move", DARK, "hari")
    assert record.termination == "illegal move" and "bestmove (none)" in record.reason


def test_move_without_newline_then_hang_is_not_a_move():
    record = play("no_newline_hang", DARK, tc="movetime=100")
    assert record.termination == "stall" and record.moves == []


def test_move_without_newline_then_exit_is_a_disconnect():
    record = play("no_newline_exit", DARK)
    assert record.termination == "disconnect" and record.moves == []
    assert "exit code 0" in record.reason and "unterminated output 'bestmove" in record.reason


def _overrun(reason: str) -> int:
    return int(re.search(r"exceeded its time by (\d+) ms", reason).group(1))


def test_late_answer_on_a_clock_is_a_time_forfeit_with_the_overrun():
    # 600 ms for the game, at least 350 ms per move: the second move overruns by at least 100 ms
    record = play(make_player("late", "0.35"), DARK, "isaac", tc="0.6")
    assert (record.termination, record.result) == ("time forfeit", "0-1")
    assert len(record.moves) == 2 and record.moves[0].ms >= 350
    assert 100 <= _overrun(record.reason) <= 700, record.reason
    assert "answered '" in record.reason


def test_late_answer_on_movetime_is_a_time_forfeit():
    # the default 1 s window after the deadline (stop + isready), not FAST's 0.3 s: on a loaded machine
    # the late answer can arrive more than 0.3 s after the deadline, and silence then is a stall
    record = play(make_player("late", "0.3", stop_grace=1.0), LIGHT, "foundations", tc="movetime=100")
    assert record.termination == "time forfeit" and 200 <= _overrun(record.reason) <= 1000, record.reason


def test_a_huge_line_is_malformed_output():
    record = play("flood_line", DARK)
    assert record.termination == "malformed output" and "longer than 65536 bytes" in record.reason


def test_an_endless_stream_of_lines_is_cut_off():
    bad = make_player("flood_lines", max_move_lines=20000)
    record = play(bad, DARK, tc="10")
    assert record.termination == "malformed output" and "flooded" in record.reason


def test_closed_pipes_are_a_disconnect():
    record = play("close_pipes", DARK)
    assert record.termination == "disconnect" and "closed its output" in record.reason


def test_crash_mid_game_reports_exit_code_and_stderr():
    record = play("crash_mid_game", LIGHT, "isaac", tc="10")
    assert (record.termination, record.result) == ("crash", "1-0")
    assert "exit code 7" in record.reason and "simulated crash" in record.reason
    assert len(record.moves) == 5   # Dark 3, Light 2
    replay(record)


def test_cpu_limit_kills_a_spinning_engine():
    bad = make_player("busy_on_go", spec_kw={"cpu_seconds": 1}, probe_interval=5.0)
    record = play(bad, DARK, tc="depth=1")
    assert record.termination == "crash" and "SIGXCPU" in record.reason


def test_memory_limit_stops_a_hog():
    bad = make_player("memory_hog", spec_kw={"memory_mb": 400})
    record = play(bad, DARK)
    assert record.termination == "crash" and "MemoryError" in record.reason


def test_engine_with_stubborn_child_is_killed_with_all_its_children():
    async def scenario():
        player = make_player("spawn_child")
        await player.start()
        pgid = player.process.pgid
        for _ in range(100):   # the child starts shortly after the engine
            members = group_members(pgid)
            if len(members) >= 2:
                break
            await asyncio.sleep(0.02)
        pids = [pid for pid, _, _ in members]
        assert len(pids) >= 2
        await player.quit()
        return pgid, pids

    pgid, pids = asyncio.run(scenario())
    assert_group_gone(pgid)
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}"), f"pid {pid} left behind"


def test_player_go_failure_carries_facts():
    async def scenario():
        player = make_player("late", "0.3")
        await player.start()
        await player.new_game("isaac")
        try:
            with pytest.raises(EngineFailure) as failure:
                await player.go("position startpos", "go movetime 50", 0.1, allowed_ms=50)
        finally:
            await player.quit()
        return failure.value

    failure = asyncio.run(scenario())
    assert failure.termination == "time forfeit"
    assert failure.overrun_ms is not None and 250 <= failure.overrun_ms <= 1000
    assert failure.move is not None and failure.elapsed_ms >= 300


EXIT_WITHOUT_QUIT = """
import asyncio, json, sys
from referee.engines.player import EnginePlayer
from referee.engines.process import EngineSpec, group_members, live_engine_groups

async def main():
    player = EnginePlayer(EngineSpec("s", [sys.executable, sys.argv[1]]))
    await player.start()
    for _ in range(200):
        if len(group_members(player.process.pgid)) >= 2:
            break
        await asyncio.sleep(0.02)
    print(json.dumps([pid for pid, _, _ in group_members(player.process.pgid)]), flush=True)

asyncio.run(main())   # ends without quit(): the exit handler must clean up
"""


def test_referee_exit_without_quit_leaves_no_engine_behind():
    import subprocess
    done = subprocess.run([sys.executable, "-c", EXIT_WITHOUT_QUIT, str(ENGINES / "spawn_child.py")],
                          capture_output=True, text=True, timeout=30, cwd=str(REPO))
    pids = json.loads(done.stdout)
    assert len(pids) >= 2
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}"), f"pid {pid} outlived the referee"
