"""`isaac-referee check <engine command>`: an engine's conformance to SPEC.md, before a tournament.

Each check talks to the engine through a real pipe, compares what it says with protocol/
(the rules are never re-implemented here), and reports PASS, FAIL (with the evidence) or
SKIP (an optional feature the engine does not have). A crash is a FAIL of the check that
caused it; the engine is restarted so the remaining checks still say something useful.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import protocol
from protocol.errors import ArenaError
from protocol.messages import OptionSpec, PositionCommand, ProtocolError, SetOption, parse_engine_line
from protocol.moves import PASS

from .client import describe_exit
from .client import short_text as _short
from .engine_process import EngineGone, EngineProcess, EngineSpec, Line, group_alive

CHECK_MAX_LINE = 16 * 1024 * 1024
"""`moves` and `go perft` output can be long (HARI has ~10^5 moves); the check allows it."""

BAD_INPUT = [
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


@dataclass
class CheckResult:
    name: str
    status: str            # PASS, FAIL or SKIP
    detail: str = ""


@dataclass
class CheckReport:
    command: list[str]
    results: list[CheckResult] = field(default_factory=list)
    engine_name: str | None = None

    @property
    def ok(self) -> bool:
        """True when nothing failed (skipped optional features do not count against the engine)."""
        return bool(self.results) and all(r.status != "FAIL" for r in self.results)

    def counts(self) -> dict[str, int]:
        out = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        for r in self.results:
            out[r.status] += 1
        return out

    def render(self) -> str:
        width = max((len(r.name) for r in self.results), default=10)
        lines = [f"check of {' '.join(self.command)}" + (f" ({self.engine_name})" if self.engine_name else "")]
        for r in self.results:
            lines.append(f"  {r.status:4}  {r.name:{width}}  {r.detail}".rstrip())
        c = self.counts()
        verdict = "conforms" if self.ok else "DOES NOT CONFORM"
        lines.append(f"{c['PASS']} passed, {c['FAIL']} failed, {c['SKIP']} skipped: the engine {verdict}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"command": self.command, "engine": self.engine_name, "ok": self.ok,
                "results": [{"name": r.name, "status": r.status, "detail": r.detail} for r in self.results]}


class CheckFailed(Exception):
    """A check found the engine wrong; the message is the evidence."""


class Skipped(Exception):
    """An optional feature is absent."""


# -- talking to the engine ----------------------------------------------------------

class _Conversation:
    """One engine process with the small vocabulary the checks need."""

    def __init__(self, spec: EngineSpec, timeout: float, start_timeout: float, io_log):
        self.spec = spec
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.io_log = io_log
        self.proc: EngineProcess | None = None
        self.id_name: str | None = None
        self.options: dict[str, OptionSpec] = {}
        self.uciok_ms = 0
        self.restarts = 0

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.alive and not self.proc.eof

    async def start(self) -> None:
        self.proc = EngineProcess(self.spec, self.io_log, max_line=CHECK_MAX_LINE)
        try:
            await self.proc.start()
        except (OSError, ValueError) as exc:
            raise CheckFailed(f"could not be started: {exc}") from None
        t0 = time.monotonic()
        await self.send("uci")
        self.options = {}
        lines, _ = await self.until(lambda t: t == "uciok", self.start_timeout, "'uci' to be answered by 'uciok'")
        self.uciok_ms = int((time.monotonic() - t0) * 1000)
        for text in lines:
            try:
                parsed = parse_engine_line(text)
            except ProtocolError as exc:
                raise CheckFailed(f"malformed line during the handshake: {exc}") from None
            if parsed.kind == "id" and parsed.id_key == "name":
                self.id_name = parsed.id_value
            elif parsed.kind == "option":
                self.options[parsed.option.name.lower()] = parsed.option

    async def ensure(self, options: dict[str, str]) -> None:
        """A running engine: restarted (and its options set again) if an earlier check killed it."""
        if self.alive:
            return
        if self.proc is not None:
            await self.proc.shutdown(0.2, 0.3)
            self.restarts += 1
        await self.start()
        for name, value in options.items():
            await self.send(SetOption(name, value).format())

    async def send(self, line: str | bytes) -> None:
        try:
            if isinstance(line, bytes):
                await self.proc.send(line.decode("latin-1"))   # bytes 0..255 pass through as one char each
            else:
                await self.proc.send(line)
        except EngineGone as exc:
            raise CheckFailed(await self.gone(str(exc))) from None

    async def gone(self, why: str) -> str:
        code = await self.proc.wait_exit(0.5)
        tail = self.proc.stderr_tail()
        return f"the engine is gone ({why}; {describe_exit(code)})" + (f"; stderr tail: {_short(tail)}" if tail else "")

    async def until(self, done: Callable[[str], bool], timeout: float, waiting_for: str) -> tuple[list[str], Line]:
        """Lines up to (not including) the first one for which done(text) holds, and that line."""
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            line = await self.proc.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise CheckFailed(f"timed out after {timeout:g} s waiting for {waiting_for}"
                                  + (f" (last output: {lines[-1][:80]!r})" if lines else " (no output)"))
            if line.kind in (Line.EOF, Line.EXIT):
                raise CheckFailed(await self.gone(f"while waiting for {waiting_for}"))
            if line.kind == Line.TOO_LONG:
                raise CheckFailed(f"printed a line longer than {CHECK_MAX_LINE} bytes")
            if done(line.text.strip()):
                return lines, line
            lines.append(line.text.strip())

    async def sync(self) -> list[str]:
        """isready -> readyok; returns what the engine printed before readyok."""
        await self.send("isready")
        lines, _ = await self.until(lambda t: t == "readyok", self.timeout, "'readyok'")
        return lines

    async def bestmove(self, timeout: float) -> tuple[str, float]:
        _, line = await self.until(lambda t: t.startswith("bestmove"), timeout, "'bestmove'")
        try:
            return parse_engine_line(line.text).move, line.t
        except ProtocolError as exc:
            raise CheckFailed(f"malformed bestmove line: {exc}") from None


# -- positions to test with (from protocol/, seeded) ------------------------------------

@dataclass
class _Positions:
    game_type: str
    plies: list[str]                 # a random game from the start, canonical moves
    mid: int                         # ply index of a mid-game position (at most max_moves legal moves)
    late: int                        # ply index of a later position small enough for perft 2
    forced_pass: str | None          # a position string where pass is the only legal move

    def game_at(self, ply: int) -> protocol.Game:
        game = protocol.new_game(self.game_type)
        for text in self.plies[:ply]:
            game.play(text)
        return game


def _random_game(game_type: str, rng: random.Random) -> tuple[list[str], list[int]]:
    """A random game's plies and the number of legal moves before each."""
    game = protocol.new_game(game_type)
    plies, counts = [], []
    while not game.is_over():
        counts.append(game.count_legal_moves())
        move = game.random_move(rng)
        game.push(move)
        plies.append(str(move))
    return plies, counts


def _nearest(indices: list[int], target: float, default: int) -> int:
    return min(indices, key=lambda i: abs(i - target)) if indices else default


def _move_illegal_twice(game_type: str) -> str:
    """A first move the opponent cannot repeat (a placement; in HARI the first move is a discard)."""
    game = protocol.new_game(game_type)
    for move in game.legal_moves():
        game.push(move)
        repeat_is_legal = game.is_legal(move)
        game.pop()
        if not repeat_is_legal:
            return str(move)
    raise ValueError(f"no {game_type} opening move is illegal when repeated")


def _find_forced_pass(game_type: str, seed: int, attempts: int = 30) -> str | None:
    for attempt in range(attempts):
        game = protocol.new_game(game_type)
        rng = random.Random(seed * 1000 + attempt)
        while not game.is_over():
            if game.count_legal_moves() == 1 and next(iter(game.legal_moves())) == PASS:
                return game.position()
            game.push(game.random_move(rng))
    return None


def make_positions(game_type: str, seed: int, max_moves: int = 5000, perft2_moves: int = 300) -> _Positions:
    """Positions from a seeded random game: one about 40% in (for go, moves, perft 1) and one about
    75% in with few moves (for perft 2), both with a real choice; and a forced pass if one is found."""
    plies, counts = _random_game(game_type, random.Random(seed))
    n = len(plies)
    mid = _nearest([i for i in range(1, n) if 2 <= counts[i] <= max_moves], 0.4 * n, 0)
    small = [i for i in range(1, n) if 2 <= counts[i] <= perft2_moves]
    if small:
        late = _nearest(small, 0.75 * n, 0)
    else:  # HARI games rarely get small: take the later half's position with the fewest moves
        later = [i for i in range(n // 2, n) if counts[i] >= 2]
        late = min(later, key=lambda i: counts[i]) if later else mid
    return _Positions(game_type, plies, mid, late, _find_forced_pass(game_type, seed))


# -- the checks ------------------------------------------------------------------------

class _Checker:
    def __init__(self, spec: EngineSpec, games, options: dict[str, str], timeout: float, start_timeout: float,
                 stop_ms: int, movetime_ms: int, seed: int, perft_depth: int, io_log):
        self.conv = _Conversation(spec, timeout, start_timeout, io_log)
        self.report = CheckReport(list(spec.cmd))
        self.games = list(games)
        self.options = options
        self.timeout = timeout
        self.stop_ms = stop_ms
        self.movetime_ms = movetime_ms
        self.seed = seed
        self.perft_depth = perft_depth

    def add(self, name: str, status: str, detail: str) -> None:
        self.report.results.append(CheckResult(name, status, detail))

    async def run_one(self, name: str, body: Callable[[], Awaitable[str]]) -> bool:
        """Run one check; a crash or timeout is that check's FAIL; the engine is restarted for the next."""
        try:
            await self.conv.ensure(self.options)
            detail = await body()
            self.add(name, "PASS", detail)
            return True
        except Skipped as exc:
            self.add(name, "SKIP", str(exc))
        except CheckFailed as exc:
            self.add(name, "FAIL", str(exc))
            if name == "start-up" and self.conv.proc is not None:
                await self.conv.proc.shutdown(0.2, 0.3)
            elif self.conv.alive:
                try:   # leave the engine in a known state for the next check
                    await self.conv.send("stop")
                    await self.conv.sync()
                except CheckFailed:
                    await self.conv.proc.shutdown(0.2, 0.3)
        return False

    async def run(self) -> CheckReport:
        try:
            if not await self.run_one("start-up", self.check_start):
                return self.report
            self.report.engine_name = self.conv.id_name
            await self.run_one("id name", self.check_id)
            await self.run_one("option UCI_Variant", self.check_variant_option)
            await self.run_one("options from the command line", self.check_options)
            await self.run_one("isready", self.check_isready)
            for game_type in self.games:
                await self.check_game(game_type)
            await self.run_one("isready during go infinite", self.check_isready_in_search)
            await self.run_one("stop during go infinite", self.check_stop)
            await self.check_bad_input()
            await self.run_one("quit", self.check_quit)
        finally:
            if self.conv.proc is not None:
                await self.conv.proc.shutdown(0.5, 0.5)
        if self.conv.restarts:
            self.add("restarts", "FAIL", f"the engine had to be restarted {self.conv.restarts} time(s) after dying")
        return self.report

    # -- handshake --------------------------------------------------------------------
    async def check_start(self) -> str:
        """run_one's ensure() has started the engine and set the options; this reports how it went."""
        return f"uciok after {self.conv.uciok_ms} ms, {len(self.conv.options)} options"

    async def check_id(self) -> str:
        if not self.conv.id_name:
            raise CheckFailed("no 'id name ...' line before uciok")
        return self.conv.id_name

    async def check_variant_option(self) -> str:
        option = self.conv.options.get("uci_variant")
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
        lines = await self.conv.sync()
        errors = [t for t in lines if t.startswith("info string error")]
        unknown = [n for n in self.options if n.lower() not in self.conv.options]
        if errors or unknown:
            raise CheckFailed("; ".join([f"undeclared: {', '.join(unknown)}"] * bool(unknown) + errors))
        return ", ".join(f"{k}={v}" for k, v in self.options.items())

    async def check_isready(self) -> str:
        t0 = time.monotonic()
        await self.conv.sync()
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
        if not await self.run_one(f"{game_type}: new game", lambda: self.new_game(game_type)):
            return
        await self.run_one(f"{game_type}: go from startpos", lambda: self.go_legal(game_type, "position startpos", start))
        await self.run_one(f"{game_type}: go after moves",
                           lambda: self.go_legal(game_type, mid_moves_cmd, pos.game_at(pos.mid)))
        await self.run_one(f"{game_type}: go from position string", lambda: self.go_legal(game_type, mid_cmd, mid_game))
        end = pos.game_at(len(pos.plies))
        await self.run_one(f"{game_type}: bestmove (none) when over",
                           lambda: self.go_expect(game_type, PositionCommand(end.position()).format(), "(none)"))
        if pos.forced_pass:
            await self.run_one(f"{game_type}: bestmove pass when forced",
                               lambda: self.go_expect(game_type, PositionCommand(pos.forced_pass).format(), "pass"))
        for depth in range(1, self.perft_depth + 1):
            await self.run_one(f"{game_type}: go perft {depth} (start)",
                               lambda d=depth: self.perft(game_type, "position startpos", start, d))
        await self.run_one(f"{game_type}: go perft 1 (mid-game)", lambda: self.perft(game_type, mid_cmd, mid_game, 1))
        for depth in range(1, self.perft_depth + 1):
            await self.run_one(f"{game_type}: go perft {depth} (late)",
                               lambda d=depth: self.perft(game_type, late_cmd, late_game, d))
        await self.run_one(f"{game_type}: moves", lambda: self.moves(game_type, mid_cmd, mid_game))

    async def new_game(self, game_type: str) -> str:
        await self.conv.send(SetOption("UCI_Variant", game_type).format())
        await self.conv.send("ucinewgame")
        errors = [t for t in await self.conv.sync() if t.startswith("info string error")]
        if errors:
            raise CheckFailed(f"rejected: {errors[0]}")
        return "setoption UCI_Variant, ucinewgame, isready -> readyok"

    async def _select(self, game_type: str) -> None:
        await self.conv.send(SetOption("UCI_Variant", game_type).format())
        await self.conv.send("ucinewgame")

    async def go_legal(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        await self._select(game_type)
        await self.conv.send(position_cmd)
        await self.conv.send(f"go movetime {self.movetime_ms}")
        t0 = time.monotonic()
        move, t = await self.conv.bestmove(self.movetime_ms / 1000 + self.timeout)
        try:
            played = _fresh(game).parse_move(move)
        except ArenaError as exc:
            raise CheckFailed(f"bestmove {move}: {exc}") from None
        note = "" if str(played) == move else f" (canonical: {played})"
        return f"bestmove {move}{note} after {(t - t0) * 1000:.0f} ms (movetime {self.movetime_ms})"

    async def go_expect(self, game_type: str, position_cmd: str, expected: str) -> str:
        await self._select(game_type)
        await self.conv.send(position_cmd)
        await self.conv.send(f"go movetime {self.movetime_ms}")
        move, _ = await self.conv.bestmove(self.movetime_ms / 1000 + self.timeout)
        if move != expected:
            raise CheckFailed(f"answered 'bestmove {move}', expected 'bestmove {expected}' "
                              f"(position {position_cmd.removeprefix('position fen ')})")
        return f"bestmove {move}"

    async def perft(self, game_type: str, position_cmd: str, game: protocol.Game, depth: int) -> str:
        await self._select(game_type)
        await self.conv.send(position_cmd)
        await self.conv.send(f"go perft {depth}")
        t0 = time.monotonic()
        lines, last = await self.conv.until(lambda t: t.startswith("Nodes searched"), self.timeout * 6,
                                            "'Nodes searched: <n>'")
        elapsed = time.monotonic() - t0
        expected = {str(m): n for m, n in _fresh(game).perft_divide(depth)}
        total = sum(expected.values())
        got, problems = {}, []
        for text in lines:
            if not text or text.startswith("info"):
                continue
            move, sep, count = text.rpartition(":")
            if not sep or not count.strip().isdigit():
                problems.append(f"unreadable line {text[:60]!r}")
                continue
            got[move.strip()] = int(count)
        try:
            reported = int(last.text.split(":", 1)[1])
        except (IndexError, ValueError):
            raise CheckFailed(f"unreadable total line {last.text[:60]!r}") from None
        problems += _compare_counts(expected, got)
        if reported != total:
            problems.insert(0, f"Nodes searched: {reported}, expected {total}")
        if problems:
            raise CheckFailed("; ".join(problems[:6]) + ("; ..." if len(problems) > 6 else ""))
        return f"{total} nodes, {len(expected)} moves agree with protocol/ ({elapsed:.2f} s)"

    async def moves(self, game_type: str, position_cmd: str, game: protocol.Game) -> str:
        await self._select(game_type)
        await self.conv.send(position_cmd)
        await self.conv.send("moves")
        _, line = await self.conv.until(lambda t: t == "moves" or t.startswith("moves ")
                                        or t.startswith("info string error"), self.timeout * 6, "the 'moves' line")
        if line.text.startswith("info string error"):
            await self.conv.sync()
            raise Skipped(f"not supported ({line.text[:80]})")
        got = line.text.split()[1:]
        expected = [str(m) for m in _fresh(game).legal_moves()]
        problems = _compare_counts({m: 1 for m in expected}, {m: got.count(m) for m in got})
        if problems:
            raise CheckFailed("; ".join(problems[:6]))
        return f"{len(expected)} legal moves agree with protocol/"

    # -- search control -----------------------------------------------------------------------
    async def _start_infinite(self) -> None:
        game_type = self.games[0] if self.games else "isaac"
        await self._select(game_type)
        await self.conv.send("position startpos")
        await self.conv.send("go infinite")
        await asyncio.sleep(0.2)

    async def check_isready_in_search(self) -> str:
        await self._start_infinite()
        await self.conv.send("isready")
        t0 = time.monotonic()
        lines, line = await self.conv.until(lambda t: t == "readyok" or t.startswith("bestmove"),
                                            self.timeout, "'readyok' during the search")
        ms = (line.t - t0) * 1000
        await self.conv.send("stop")
        if line.text.startswith("bestmove"):
            raise CheckFailed("the search ended by itself before 'stop' (go infinite must wait for stop)")
        await self.conv.bestmove(self.timeout)
        if ms > self.stop_ms:
            raise CheckFailed(f"readyok took {ms:.0f} ms (limit {self.stop_ms} ms)")
        return f"readyok after {ms:.0f} ms while searching"

    async def check_stop(self) -> str:
        await self._start_infinite()
        await self.conv.send("stop")
        t0 = time.monotonic()
        move, t = await self.conv.bestmove(self.timeout)
        ms = (t - t0) * 1000
        game = protocol.new_game(self.games[0] if self.games else "isaac")
        try:
            game.parse_move(move)
        except ArenaError as exc:
            raise CheckFailed(f"bestmove after stop is not legal: {exc}") from None
        if ms > self.stop_ms:
            raise CheckFailed(f"bestmove {move} came {ms:.0f} ms after stop (limit {self.stop_ms} ms)")
        return f"bestmove {move} {ms:.0f} ms after stop"

    # -- bad input ------------------------------------------------------------------------------
    async def check_bad_input(self) -> None:
        game_type = self.games[0] if self.games else "isaac"
        twice = _move_illegal_twice(game_type)
        for label, text in BAD_INPUT:
            if text is None:
                text = f"position startpos moves {twice} {twice}"
            await self.run_one(f"bad input: {label}", lambda t=text: self.one_error(game_type, t))
        await self.run_one("rejected position keeps the previous one", lambda: self.keeps_position(game_type))

    async def one_error(self, game_type: str, text: str | bytes) -> str:
        await self._select(game_type)
        await self.conv.sync()
        await self.conv.send(text)
        lines = await self.conv.sync()
        errors = [t for t in lines if t.startswith("info string error")]
        if not errors:
            raise CheckFailed("no 'info string error: ...' answer" + (f" (got {lines[0][:60]!r})" if lines else ""))
        if len(errors) > 1:
            raise CheckFailed(f"{len(errors)} error lines for one bad command (expected one)")
        if not errors[0].startswith("info string error:"):
            raise CheckFailed(f"error line lacks 'error:': {errors[0][:80]!r}")
        return errors[0] if len(errors[0]) <= 100 else errors[0][:97] + "..."

    async def keeps_position(self, game_type: str) -> str:
        pos = make_positions(game_type, self.seed + 1)
        game = pos.game_at(pos.mid)
        await self._select(game_type)
        await self.conv.send(PositionCommand(game.position()).format())
        await self.conv.send("position fen nonsense")
        await self.conv.send("go perft 1")
        _, last = await self.conv.until(lambda t: t.startswith("Nodes searched"), self.timeout * 6, "'Nodes searched'")
        count = int(last.text.split(":", 1)[1]) if last.text.split(":", 1)[1].strip().isdigit() else -1
        if count != game.count_legal_moves():
            raise CheckFailed(f"after a rejected position, perft 1 = {count}, but the previous position has "
                              f"{game.count_legal_moves()} moves")
        return "perft 1 after a bad 'position' counts the previous position"

    async def check_quit(self) -> str:
        await self.conv.send("quit")
        t0 = time.monotonic()
        code = await self.conv.proc.wait_exit(self.timeout)
        if code is None:
            raise CheckFailed(f"still running {self.timeout:g} s after 'quit'")
        ms = (time.monotonic() - t0) * 1000
        await asyncio.sleep(0.05)
        if group_alive(self.conv.proc.pgid):
            raise CheckFailed("exited after 'quit' but left child processes running")
        return f"exited ({describe_exit(code)}) {ms:.0f} ms after quit"


def _fresh(game: protocol.Game) -> protocol.Game:
    """A newly parsed copy: every expectation is computed on untouched state, as the engine's is."""
    return protocol.game_from_position(game.position())


def _compare_counts(expected: dict[str, int], got: dict[str, int]) -> list[str]:
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


async def check_engine(cmd: list[str], *, cwd: str | None = None, options: dict[str, str] | None = None,
                       games=protocol.GAME_NAMES, timeout: float = 5.0, start_timeout: float = 10.0,
                       stop_ms: int = 50, movetime_ms: int = 100, seed: int = 1, perft_depth: int = 2,
                       io_log=None) -> CheckReport:
    """The conformance report of the engine run by `cmd` (asyncio form of run_check)."""
    spec = EngineSpec(name=cmd[0] if cmd else "engine", cmd=list(cmd), cwd=cwd, options=dict(options or {}))
    checker = _Checker(spec, games, dict(options or {}), timeout, start_timeout, stop_ms, movetime_ms, seed,
                       perft_depth, io_log)
    return await checker.run()


def run_check(cmd: list[str], **kw) -> CheckReport:
    """`isaac-referee check <engine command>`: run every check and return the report (.ok, .render())."""
    return asyncio.run(check_engine(cmd, **kw))
