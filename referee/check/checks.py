"""The checks: each talks to the engine through a real pipe, compares what it says with protocol/
(the rules are never re-implemented here) and returns its evidence, or raises CheckFailed/Skipped.

Required checks are what a tournament asks of an engine; recommended ones cover error lines,
`d`, `moves`, perft, search control and the GUI commands (SPEC 10.5).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from functools import partial

import protocol
from protocol.errors import ArenaError
from protocol.messages import (
    PositionCommand,
    ProtocolError,
    SetOption,
    parse_moves_line,
    parse_perft_line,
    parse_perft_total,
)

from ..engines.client import Reply, describe_exit
from ..engines.process import EngineSpec, group_alive
from .positions import fresh, illegal_repeat, make_positions
from .report import CheckReport, CheckResult, Status, Tier
from .session import CheckFailed, CheckSession, Skipped

BAD_INPUT: list[tuple[str, str | bytes | None]] = [
    ("unknown command", "frobnicate the board"),
    ("malformed move", "position startpos moves z9z9"),
    ("illegal move", None),            # built per game: the same placement twice
    ("bad position string", "position fen isaac this-is-not-a-position"),
    ("bad option value", "setoption name UCI_Variant value chess"),
    ("unknown option", "setoption name NoSuchOption value 1"),
    ("bad go parameter", "go depth minus-one"),
    ("binary junk", b"\x00\x01\xfe\xff\x1b[2J junk"),
    ("very long line", "position startpos moves " + "a0a2 " * 20000),
]

REQUIRED, RECOMMENDED = Tier.REQUIRED, Tier.RECOMMENDED


def _is_error(reply: Reply) -> bool:
    return reply.is_error


class Checker:
    """Runs every check in order against one engine and fills the report."""

    def __init__(self, spec: EngineSpec, games: tuple[str, ...], options: dict[str, str], *, timeout: float,
                 start_timeout: float, stop_ms: int, movetime_ms: int, seed: int, perft_depth: int,
                 io_log: Callable[[str], None] | None):
        self.session = CheckSession(spec, timeout, start_timeout, io_log)
        self.report = CheckReport(list(spec.cmd))
        self.games = games
        self.search_game = games[0] if games else protocol.GAME_NAMES[0]
        self.options = options
        self.timeout = timeout
        self.stop_ms = stop_ms
        self.movetime_ms = movetime_ms
        self.seed = seed
        self.perft_depth = perft_depth

    def add(self, name: str, status: Status, detail: str, tier: Tier) -> None:
        self.report.results.append(CheckResult(name, status, detail, tier))

    async def run_one(self, name: str, body: Callable[[], Awaitable[str]], tier: Tier = REQUIRED) -> bool:
        """Run one check; a crash or timeout is that check's FAIL; the engine is restarted for the next."""
        session = self.session
        try:
            await session.ensure(self.options)
            self.add(name, Status.PASS, await body(), tier)
            return True
        except Skipped as exc:
            self.add(name, Status.SKIP, str(exc), tier)
        except CheckFailed as exc:
            self.add(name, Status.FAIL, str(exc), tier)
            if name == "start-up":
                await session.shutdown()
            elif session.alive:
                try:   # leave the engine in a known state for the next check
                    await session.send("stop")
                    await session.sync()
                except CheckFailed:
                    await session.shutdown()
        return False

    async def run(self) -> CheckReport:
        try:
            if not await self.run_one("start-up", self.check_start):
                return self.report
            self.report.engine_name = self.session.handshake.id_name
            await self.run_one("id name", self.check_id, RECOMMENDED)
            await self.run_one("option UCI_Variant", self.check_variant_option)
            await self.run_one("options from the command line", self.check_options)
            await self.run_one("isready", self.check_isready)
            for game_type in self.games:
                await self.check_game(game_type)
            await self.run_one("isready during go infinite", self.check_isready_in_search, RECOMMENDED)
            await self.run_one("stop during go infinite", self.check_stop, RECOMMENDED)
            await self.check_bad_input()
            await self.run_one("quit", self.check_quit)
        finally:
            await self.session.shutdown(0.5, 0.5)
        self.add_output_verdict()
        if self.session.restarts:
            self.add("restarts", Status.FAIL,
                     f"the engine had to be restarted {self.session.restarts} time(s) after dying", RECOMMENDED)
        return self.report

    def add_output_verdict(self) -> None:
        """Every line the engine printed during the check, judged by the raw-line hook."""
        bad = self.session.malformed     # the hook saw every line, the handshake's included
        if bad:
            shown = "; ".join(str(e) for e in bad[:3]) + ("; ..." if len(bad) > 3 else "")
            self.add("output well-formed", Status.FAIL, f"{len(bad)} malformed line(s): {shown}", RECOMMENDED)
        else:
            self.add("output well-formed", Status.PASS, "every id, option, info and bestmove line parses",
                     RECOMMENDED)

    # -- handshake --------------------------------------------------------------------
    async def check_start(self) -> str:
        """run_one's ensure() has started the engine and set the options; this reports how it went."""
        handshake = self.session.handshake
        return f"uciok after {handshake.elapsed_ms} ms, {len(handshake.options)} options"

    async def check_id(self) -> str:
        if not self.session.handshake.id_name:
            raise CheckFailed("no 'id name ...' line before uciok")
        return self.session.handshake.id_name

    async def check_variant_option(self) -> str:
        option = self.session.handshake.option("UCI_Variant")
        if option is None:
            raise CheckFailed("no 'option name UCI_Variant type combo ...' line")
        if option.type != "combo":
            raise CheckFailed(f"UCI_Variant has type {option.type}, expected combo")
        missing = [g for g in self.games if g not in (v.lower() for v in option.vars)]
        if missing:
            raise CheckFailed(f"UCI_Variant lacks {', '.join(missing)} (vars: {', '.join(option.vars)})")
        return f"combo: {', '.join(option.vars)} (default {option.default})"

    async def check_options(self) -> str:
        if not self.options:
            raise Skipped("none given")
        errors = [r.text for r in await self.session.sync() if r.is_error]
        unknown = [n for n in self.options if self.session.handshake.option(n) is None]
        if errors or unknown:
            raise CheckFailed("; ".join([f"undeclared: {', '.join(unknown)}"] * bool(unknown) + errors))
        return ", ".join(f"{k}={v}" for k, v in self.options.items())

    async def check_isready(self) -> str:
        t0 = time.monotonic()
        await self.session.sync()
        return f"readyok after {(time.monotonic() - t0) * 1000:.0f} ms"

    # -- one game -------------------------------------------------------------------------
    async def check_game(self, game_type: str) -> None:
        pos = make_positions(game_type, self.seed)
        # the engine is given position strings: judge it against the same strings parsed by protocol/
        mid_game = protocol.game_from_position(pos.game_at(pos.mid).position())
        late_game = protocol.game_from_position(pos.game_at(pos.late).position())
        mid_moves_cmd = PositionCommand(None, pos.plies[:pos.mid]).format()
        mid_cmd = PositionCommand(mid_game.position()).format()
        late_cmd = PositionCommand(late_game.position()).format()
        start = protocol.new_game(game_type)
        run = self.run_one
        if not await run(f"{game_type}: new game", lambda: self.new_game(game_type)):
            return
        await run(f"{game_type}: go from startpos", lambda: self.go_legal(game_type, "position startpos", start))
        await run(f"{game_type}: go after moves",
                  lambda: self.go_legal(game_type, mid_moves_cmd, pos.game_at(pos.mid)))
        await run(f"{game_type}: go from position string", lambda: self.go_legal(game_type, mid_cmd, mid_game))
        end = pos.game_at(len(pos.plies))
        await run(f"{game_type}: bestmove (none) when over",
                  lambda: self.go_expect(game_type, PositionCommand(end.position()).format(), "(none)"), RECOMMENDED)
        forced = pos.forced_pass
        if forced:
            await run(f"{game_type}: bestmove pass when forced",
                      lambda: self.go_expect(game_type, PositionCommand(forced).format(), "pass"))
        for depth in range(1, self.perft_depth + 1):
            await run(f"{game_type}: go perft {depth} (start)",
                      partial(self.perft, game_type, "position startpos", start, depth), RECOMMENDED)
        await run(f"{game_type}: go perft 1 (mid-game)", lambda: self.perft(game_type, mid_cmd, mid_game, 1),
                  RECOMMENDED)
        for depth in range(1, self.perft_depth + 1):
            await run(f"{game_type}: go perft {depth} (late)",
                      partial(self.perft, game_type, late_cmd, late_game, depth), RECOMMENDED)
        await run(f"{game_type}: moves", lambda: self.moves(game_type, mid_cmd, mid_game), RECOMMENDED)
        await run(f"{game_type}: d", lambda: self.display(game_type, mid_cmd), RECOMMENDED)
        await run(f"{game_type}: state", lambda: self.state(game_type, mid_cmd, mid_game), RECOMMENDED)
        await run(f"{game_type}: steps", lambda: self.steps(game_type, mid_cmd, mid_game), RECOMMENDED)

    async def _select(self, game_type: str) -> None:
        await self.session.send(SetOption("UCI_Variant", game_type).format())
        await self.session.send("ucinewgame")

    async def new_game(self, game_type: str) -> str:
        await self._select(game_type)
        errors = [r.text for r in await self.session.sync() if r.is_error]
        if errors:
            raise CheckFailed(f"rejected: {errors[0]}")
        return "setoption UCI_Variant, ucinewgame, isready -> readyok"

    async def _go(self, game_type: str, position_cmd: str) -> tuple[str, float, float]:
        """(bestmove, when it came, when go was sent) for `go movetime` in a position."""
        await self._select(game_type)
        await self.session.send(position_cmd)
        await self.session.send(f"go movetime {self.movetime_ms}")
        t0 = time.monotonic()
        move, t = await self.session.bestmove(self.movetime_ms / 1000 + self.timeout)
        return move, t, t0

    async def go_legal(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        move, t, t0 = await self._go(game_type, position_cmd)
        try:
            played = fresh(game).parse_move(move)
        except ArenaError as exc:
            raise CheckFailed(f"bestmove {move}: {exc}") from None
        note = "" if str(played) == move else f" (canonical: {played})"
        return f"bestmove {move}{note} after {(t - t0) * 1000:.0f} ms (movetime {self.movetime_ms})"

    async def go_expect(self, game_type: str, position_cmd: str, expected: str) -> str:
        move, _, _ = await self._go(game_type, position_cmd)
        if move != expected:
            raise CheckFailed(f"answered 'bestmove {move}', expected 'bestmove {expected}' "
                              f"(position {position_cmd.removeprefix('position fen ')})")
        return f"bestmove {move}"

    async def _ask(self, game_type: str, position_cmd: str, command: str) -> None:
        await self._select(game_type)
        await self.session.send(position_cmd)
        await self.session.send(command)

    async def perft(self, game_type: str, position_cmd: str, game: protocol.Game, depth: int) -> str:
        await self._ask(game_type, position_cmd, f"go perft {depth}")
        t0 = time.monotonic()
        replies, last = await self.session.expect(lambda r: r.text.startswith("Nodes searched") or r.word == "bestmove",
                                                  self.timeout * 6, "'Nodes searched: <n>'")
        elapsed = time.monotonic() - t0
        if last.word == "bestmove":
            raise CheckFailed(f"answered 'go perft {depth}' with {last.text[:40]!r} (perft not supported)")
        expected = {str(m): n for m, n in fresh(game).perft_divide(depth)}
        total = sum(expected.values())
        got: dict[str, int] = {}
        problems: list[str] = []
        for reply in replies:
            if not reply.text or reply.kind == "info":
                continue
            try:
                move, count = parse_perft_line(reply.text)
            except ProtocolError:
                problems.append(f"unreadable line {reply.text[:60]!r}")
                continue
            got[move] = count
        try:
            reported = parse_perft_total(last.text)
        except ProtocolError:
            raise CheckFailed(f"unreadable total line {last.text[:60]!r}") from None
        problems += compare_counts(expected, got)
        if reported != total:
            problems.insert(0, f"Nodes searched: {reported}, expected {total}")
        if problems:
            raise CheckFailed("; ".join(problems[:6]) + ("; ..." if len(problems) > 6 else ""))
        return f"{total} nodes, {len(expected)} moves agree with protocol/ ({elapsed:.2f} s)"

    async def moves(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        await self._ask(game_type, position_cmd, "moves")
        _, reply = await self.session.expect(lambda r: r.word == "moves" or r.is_error,
                                             self.timeout * 6, "the 'moves' line")
        if reply.is_error:
            await self.session.sync()
            raise Skipped(f"not supported ({reply.text[:80]})")
        got = parse_moves_line(reply.text)
        expected = [str(m) for m in fresh(game).legal_moves()]
        problems = compare_counts({m: 1 for m in expected}, {m: got.count(m) for m in got})
        if problems:
            raise CheckFailed("; ".join(problems[:6]))
        return f"{len(expected)} legal moves agree with protocol/"

    async def display(self, game_type: str, position_cmd: str) -> str:
        """`d` prints the position for people: some lines, no error, before the next readyok."""
        await self._ask(game_type, position_cmd, "d")
        replies = await self.session.sync()
        errors = [r.text for r in replies if r.is_error]
        if errors:
            raise CheckFailed(f"rejected: {errors[0][:80]}")
        shown = [r.text for r in replies if r.text]
        if not shown:
            raise CheckFailed("printed nothing for 'd'")
        return f"{len(shown)} lines"

    async def _optional(self, game_type: str, position_cmd: str, command: str, word: str) -> Reply:
        """The answer line of a GUI command; Skipped when the engine rejects it or stays silent."""
        await self._ask(game_type, position_cmd, command)
        replies = await self.session.sync()
        answer = next((r for r in replies if r.word == word), None)
        if answer is None:
            error = next((r.text for r in replies if r.is_error), None)
            raise Skipped(f"not supported ({error[:80]})" if error else "not supported (no answer)")
        return answer

    async def state(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        """`state` (SPEC 9): one JSON object whose position is the canonical position string."""
        answer = await self._optional(game_type, position_cmd, "state", "state")
        try:
            data = json.loads(answer.text.split(None, 1)[1] if " " in answer.text else "")
        except ValueError as exc:
            raise CheckFailed(f"'state' is not followed by a JSON object: {exc}") from None
        if not isinstance(data, dict):
            raise CheckFailed("'state' is not followed by a JSON object")
        expected = fresh(game)
        problems = [f"{key}: {data.get(key)!r}, expected {want!r}"
                    for key, want in (("game", game_type), ("position", expected.position()),
                                      ("over", expected.is_over())) if data.get(key) != want]
        if problems:
            raise CheckFailed("; ".join(problems))
        return f"{len(data)} fields, position agrees with protocol/"

    async def steps(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        """`steps` (SPEC 9): its options that complete a move, from no steps, are legal moves."""
        answer = await self._optional(game_type, position_cmd, "steps", "steps")
        words = answer.text.split()
        if len(words) < 2:
            raise CheckFailed(f"expected 'steps <prefix> <option> ...', got {answer.text[:80]!r}")
        if words[1] != "-":
            raise CheckFailed(f"no steps entered, but the prefix is {words[1]!r} (expected '-')")
        options = words[2:]
        if not options:
            raise CheckFailed("no options offered in a position that is not over")
        expected = fresh(game)
        illegal = []
        for option in (o[:-1] for o in options if o.endswith("*")):
            try:
                expected.parse_move(option)
            except ArenaError:
                illegal.append(option)
        if illegal:
            raise CheckFailed(f"{len(illegal)} completing options are not legal moves (e.g. {', '.join(illegal[:3])})")
        return f"{len(options)} options; those completing a move are legal"

    # -- search control -----------------------------------------------------------------------
    async def _start_infinite(self) -> None:
        await self._select(self.search_game)
        await self.session.send("position startpos")
        await self.session.send("go infinite")
        await asyncio.sleep(0.2)

    async def check_isready_in_search(self) -> str:
        await self._start_infinite()
        await self.session.send("isready")
        t0 = time.monotonic()
        _, reply = await self.session.expect(lambda r: r.kind == "readyok" or r.word == "bestmove",
                                             self.timeout, "'readyok' during the search")
        ms = (reply.t - t0) * 1000
        await self.session.send("stop")
        if reply.word == "bestmove":
            raise CheckFailed("the search ended by itself before 'stop' (go infinite must wait for stop)")
        await self.session.bestmove(self.timeout)
        if ms > self.stop_ms:
            raise CheckFailed(f"readyok took {ms:.0f} ms (limit {self.stop_ms} ms)")
        return f"readyok after {ms:.0f} ms while searching"

    async def check_stop(self) -> str:
        await self._start_infinite()
        await self.session.send("stop")
        t0 = time.monotonic()
        move, t = await self.session.bestmove(self.timeout)
        ms = (t - t0) * 1000
        if t < t0:
            raise CheckFailed("the search ended by itself before 'stop' (go infinite must wait for stop)")
        game = protocol.new_game(self.search_game)
        try:
            game.parse_move(move)
        except ArenaError as exc:
            raise CheckFailed(f"bestmove after stop is not legal: {exc}") from None
        if ms > self.stop_ms:
            raise CheckFailed(f"bestmove {move} came {ms:.0f} ms after stop (limit {self.stop_ms} ms)")
        return f"bestmove {move} {ms:.0f} ms after stop"

    # -- bad input ------------------------------------------------------------------------------
    async def check_bad_input(self) -> None:
        game_type = self.search_game
        twice = illegal_repeat(game_type)
        for label, text in BAD_INPUT:
            line = f"position startpos moves {twice} {twice}" if text is None else text
            await self.run_one(f"bad input: {label}", partial(self.one_error, game_type, line), RECOMMENDED)
        await self.run_one("rejected position keeps the previous one", lambda: self.keeps_position(game_type),
                           RECOMMENDED)

    async def one_error(self, game_type: str, text: str | bytes) -> str:
        await self._select(game_type)
        await self.session.sync()
        await self.session.send(text)
        replies = await self.session.sync()
        errors = [r.text for r in replies if r.is_error]
        if not errors:
            raise CheckFailed("no 'info string error: ...' answer"
                              + (f" (got {replies[0].text[:60]!r})" if replies else ""))
        if len(errors) > 1:
            raise CheckFailed(f"{len(errors)} error lines for one bad command (expected one)")
        if not errors[0].startswith("info string error:"):
            raise CheckFailed(f"error line lacks 'error:': {errors[0][:80]!r}")
        return errors[0] if len(errors[0]) <= 100 else errors[0][:97] + "..."

    async def keeps_position(self, game_type: str) -> str:
        pos = make_positions(game_type, self.seed + 1)
        game = pos.game_at(pos.mid)
        await self._select(game_type)
        await self.session.send(PositionCommand(game.position()).format())
        await self.session.send("position fen nonsense")
        await self.session.send("go perft 1")
        _, last = await self.session.expect(lambda r: r.text.startswith("Nodes searched"), self.timeout * 6,
                                            "'Nodes searched'")
        try:
            count = parse_perft_total(last.text)
        except ProtocolError:
            count = -1
        if count != game.count_legal_moves():
            raise CheckFailed(f"after a rejected position, perft 1 = {count}, but the previous position has "
                              f"{game.count_legal_moves()} moves")
        return "perft 1 after a bad 'position' counts the previous position"

    async def check_quit(self) -> str:
        await self.session.send("quit")
        t0 = time.monotonic()
        code = await self.session.wait_exit(self.timeout)
        if code is None:
            raise CheckFailed(f"still running {self.timeout:g} s after 'quit'")
        ms = (time.monotonic() - t0) * 1000
        await asyncio.sleep(0.05)
        pgid = self.session.pgid
        if pgid is not None and group_alive(pgid):
            raise CheckFailed("exited after 'quit' but left child processes running")
        return f"exited ({describe_exit(code)}) {ms:.0f} ms after quit"


def compare_counts(expected: dict[str, int], got: dict[str, int]) -> list[str]:
    """Human differences between two move -> count maps."""
    problems = []
    missing = [m for m in expected if m not in got]
    extra = [m for m in got if m not in expected]
    if missing:
        problems.append(f"{len(missing)} legal moves missing (e.g. {', '.join(missing[:3])})")
    if extra:
        problems.append(f"{len(extra)} moves that are not legal or not canonical (e.g. {', '.join(extra[:3])})")
    wrong = [f"{m}: {got[m]}, expected {n}" for m, n in expected.items() if m in got and got[m] != n]
    problems += wrong[:3]
    return problems
