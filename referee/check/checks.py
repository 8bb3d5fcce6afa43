"""The checks: each talks to the engine through a real pipe, compares what it says with protocol/
(the rules are never re-implemented here) and returns its evidence, or raises CheckFailed/Skipped.

Required checks are what a tournament asks of an engine (SPEC 9.2's minimum), timed as a tournament
times them: each game starts with a fresh process, whose first move counts, and every `go` must be
answered within its time plus the referee's margin. Recommended ones cover error lines, `d`,
`moves`, perft, search control and the GUI commands (SPEC 10.7).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import partial

import protocol
from protocol.errors import ArenaError
from protocol.messages import PositionCommand, SetOption

from ..engines.client import describe_exit
from ..engines.hints import hint
from ..engines.process import EngineSpec, group_alive
from . import optional
from .positions import Positions, fresh, illegal_repeat, make_positions
from .report import CheckReport, CheckResult, Status, Tier
from .session import CheckFailed, CheckSession, Skipped
from .timing import Budget, Late, timed_go

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
QUIT_S = 1.0
"""`quit` ends the process within this long (SPEC 9.2), with exit status 0."""
CLOCK_MS, CLOCK_INC_MS = 1000, 10
"""The clocks of the `go` after moves: a bot that ignores them, or spends them all, would lose."""


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
        self.stalled: set[str] = set()
        """Games in which a `go` came too late to wait for again (its further `go` checks are not asked)."""

    def add(self, name: str, status: Status, detail: str, tier: Tier, hint_text: str | None = None) -> None:
        self.report.results.append(CheckResult(name, status, detail, tier, hint_text or ""))

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
            self.add(name, Status.FAIL, str(exc), tier, exc.hint)
            if name == "start-up" or (isinstance(exc, Late) and exc.restart):
                await session.kill()
            elif session.alive:
                try:   # leave the engine in a known state for the next check
                    await session.send("stop")
                    await session.sync()
                except CheckFailed:
                    await session.kill()
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
            for number, game_type in enumerate(self.games):
                await self.check_game(game_type, fresh_process=number > 0)
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
            self.add("output well-formed", Status.FAIL, f"{len(bad)} malformed line(s): {shown}", RECOMMENDED,
                     hint("stdout-is-for-protocol"))
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
            raise CheckFailed("no 'option name UCI_Variant type combo ...' line", hint("one-game"))
        if option.type != "combo":
            raise CheckFailed(f"UCI_Variant has type {option.type}, expected combo", hint("one-game"))
        missing = [g for g in self.games if g not in (v.lower() for v in option.vars)]
        if missing:
            raise CheckFailed(f"UCI_Variant lacks {', '.join(missing)} (vars: {', '.join(option.vars)})",
                              hint("one-game"))
        return f"combo: {', '.join(option.vars)} (default {option.default})"

    async def check_options(self) -> str:
        if not self.options:
            raise Skipped("none given")
        errors = [r.text for r in await self.session.sync() if r.is_error]
        unknown = [n for n in self.options if self.session.handshake.option(n) is None]
        if errors or unknown:
            raise CheckFailed("; ".join([f"undeclared: {', '.join(unknown)}"] * bool(unknown) + errors),
                              hint("options"))
        return ", ".join(f"{k}={v}" for k, v in self.options.items())

    async def check_isready(self) -> str:
        t0 = time.monotonic()
        await self.session.sync()
        return f"readyok after {(time.monotonic() - t0) * 1000:.0f} ms"

    # -- one game -------------------------------------------------------------------------
    async def check_game(self, game_type: str, fresh_process: bool) -> None:
        """A game's checks, from a fresh process (as a tournament's first game of an engine), so the
        first `go` is the first move after start-up."""
        pos = make_positions(game_type, self.seed)
        # the engine is given position strings: judge it against the same strings parsed by protocol/
        mid_game = protocol.game_from_position(pos.game_at(pos.mid).position())
        late_game = protocol.game_from_position(pos.game_at(pos.late).position())
        mid_moves_cmd = PositionCommand(None, pos.plies[:pos.mid]).format()
        mid_cmd = PositionCommand(mid_game.position()).format()
        late_cmd = PositionCommand(late_game.position()).format()
        start = protocol.new_game(game_type)
        run = self.run_one
        if fresh_process:
            try:
                await self.session.fresh(self.options)
            except CheckFailed as exc:
                self.add(f"{game_type}: start-up", Status.FAIL, str(exc), REQUIRED, exc.hint)
                return
        if not await run(f"{game_type}: new game", lambda: self.new_game(game_type)):
            return
        movetime = Budget.movetime(self.movetime_ms)
        await run(f"{game_type}: go from startpos",
                  lambda: self.go_legal(game_type, "position startpos", start, movetime, first=True))
        await run(f"{game_type}: go after moves",
                  lambda: self.go_legal(game_type, mid_moves_cmd, pos.game_at(pos.mid),
                                        Budget.clock(CLOCK_MS, CLOCK_INC_MS)))
        await run(f"{game_type}: go from position string",
                  lambda: self.go_legal(game_type, mid_cmd, mid_game, movetime))
        end = pos.game_at(len(pos.plies))
        await run(f"{game_type}: bestmove (none) when over",
                  lambda: self.go_expect(game_type, PositionCommand(end.position()).format(), "(none)"), RECOMMENDED)
        forced = pos.forced_pass
        if forced:
            await run(f"{game_type}: bestmove pass when forced",
                      lambda: self.go_expect(game_type, PositionCommand(forced).format(), "pass"))
        patience, session = self.timeout * 6, self.session
        optional_checks = [
            *((f"go perft {depth} (start)", "position startpos", partial(optional.perft, session, depth, start, patience))
              for depth in range(1, self.perft_depth + 1)),
            ("go perft 1 (mid-game)", mid_cmd, partial(optional.perft, session, 1, mid_game, patience)),
            *((f"go perft {depth} (late)", late_cmd, partial(optional.perft, session, depth, late_game, patience))
              for depth in range(1, self.perft_depth + 1)),
            ("moves", mid_cmd, partial(optional.moves, session, mid_game, patience)),
            ("d", mid_cmd, partial(optional.display, session)),
            ("state", mid_cmd, partial(optional.state, session, game_type, mid_game)),
            ("steps", mid_cmd, partial(optional.steps, session, mid_game)),
        ]
        for name, position_cmd, body in optional_checks:
            await run(f"{game_type}: {name}", partial(self._optional, game_type, position_cmd, body), RECOMMENDED)

    async def _select(self, game_type: str) -> None:
        await self.session.send(SetOption("UCI_Variant", game_type).format(), "ucinewgame")

    async def _optional(self, game_type: str, position_cmd: str, body: Callable[[], Awaitable[str]]) -> str:
        await self._select(game_type)
        await self.session.send(position_cmd)
        return await body()

    async def new_game(self, game_type: str) -> str:
        await self._select(game_type)
        errors = [r.text for r in await self.session.sync() if r.is_error]
        if errors:
            raise CheckFailed(f"rejected: {errors[0]}", hint("one-game") if "variant" in errors[0].lower() else None)
        return "setoption UCI_Variant, ucinewgame, isready -> readyok"

    async def _go(self, game_type: str, position_cmd: str | None, budget: Budget,
                  select: bool = True) -> tuple[str, int]:
        """(bestmove, ms) for a `go` timed as a tournament times it (after `position_cmd`, if any)."""
        if game_type in self.stalled:
            raise Skipped(f"not asked: an earlier go of {game_type} came too late to wait for again")
        if select:
            await self._select(game_type)
        if position_cmd is not None:
            await self.session.send(position_cmd)
        try:
            answer = await timed_go(self.session, budget, self.timeout)
        except Late as late:
            if late.stalled:
                self.stalled.add(game_type)
            raise
        return answer.move, answer.ms

    async def go_legal(self, game_type: str, position_cmd: str, game: protocol.Game, budget: Budget,
                       first: bool = False) -> str:
        """A legal bestmove in time; `first`: the first `go` of a fresh process (the game already chosen)."""
        move, ms = await self._go(game_type, position_cmd, budget, select=not first)
        try:
            played = fresh(game).parse_move(move)
        except ArenaError as exc:
            raise CheckFailed(f"bestmove {move}: {exc}", hint("own-rules")) from None
        note = "" if str(played) == move else f" (canonical: {played})"
        when = ", the first move of a fresh process" if first else ""
        return f"bestmove {move}{note} after {ms} ms ({budget.tc}: {budget.allowed_ms} ms allowed{when})"

    async def go_expect(self, game_type: str, position_cmd: str, expected: str) -> str:
        move, ms = await self._go(game_type, position_cmd, Budget.movetime(self.movetime_ms))
        if move != expected:
            raise CheckFailed(f"answered 'bestmove {move}', expected 'bestmove {expected}' "
                              f"(position {position_cmd.removeprefix('position fen ')})")
        return f"bestmove {move} after {ms} ms"

    # -- search control -----------------------------------------------------------------------
    async def _start_infinite(self) -> None:
        await self._select(self.search_game)
        await self.session.send("position startpos", "go infinite")
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
            raise CheckFailed(f"readyok took {ms:.0f} ms (limit {self.stop_ms} ms)", hint("stall"))
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
            raise CheckFailed(f"bestmove {move} came {ms:.0f} ms after stop (limit {self.stop_ms} ms)", hint("stall"))
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
        """After a refused `position`, `go` answers from the previous one: a position whose only answer
        (pass, or (none) when it is over) is not an answer at the start, so no optional command is needed."""
        pos: Positions = make_positions(game_type, self.seed + 1)
        kept = pos.forced_pass or pos.game_at(len(pos.plies)).position()
        expected = "pass" if pos.forced_pass else "(none)"
        await self._select(game_type)
        await self.session.send(PositionCommand(kept).format(), "position fen nonsense")
        move, _ = await self._go(game_type, None, Budget.movetime(self.movetime_ms), select=False)
        if move != expected:
            raise CheckFailed(f"after a refused 'position', 'go' answered {move!r}; the previous position "
                              f"({kept}) calls for {expected!r}")
        return f"go after a refused 'position' answers {expected!r} from the previous one"

    async def check_quit(self) -> str:
        """`quit` ends the process (and its children) within a second, with exit status 0."""
        await self.session.send("quit")
        t0 = time.monotonic()
        code = await self.session.wait_exit(QUIT_S)
        if code is None:
            raise CheckFailed(f"still running {QUIT_S:g} s after 'quit'", hint("quit"))
        ms = (time.monotonic() - t0) * 1000
        if code != 0:
            story = self.session.exit_story(code)
            raise CheckFailed(f"{describe_exit(code)} {ms:.0f} ms after 'quit'" + "".join(f"; {p}" for p in story[1:]),
                              hint("quit"))
        await asyncio.sleep(0.05)
        pgid = self.session.pgid
        if pgid is not None and group_alive(pgid):
            raise CheckFailed("exited after 'quit' but left child processes running", hint("quit"))
        return f"exited (exit code 0) {ms:.0f} ms after quit"
