"""The checks of the optional commands (recommended tier): perft and `moves` against protocol/ move by
move, `d`, and the GUI commands `state` and `steps`. An engine may leave any of them out and answer
it with an error line (SPEC 9.6): that is a SKIP, not a failure, and nobody waits for it."""

from __future__ import annotations

import json
import time

import protocol
from protocol.errors import ArenaError
from protocol.messages import ProtocolError, parse_moves_line, parse_perft_line, parse_perft_total

from ..engines.client import Reply
from .positions import fresh
from .session import CheckFailed, CheckSession, Skipped


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


async def _left_out(session: CheckSession, reply: Reply) -> Skipped:
    """An optional command answered with an error line: in step again, and a SKIP saying so."""
    await session.sync()
    return Skipped(f"not supported ({reply.text[:80]})")


async def perft(session: CheckSession, depth: int, game: protocol.Game, wait: float) -> str:
    """`go perft <depth>` (the position already sent) agrees with protocol/ move by move."""
    await session.send(f"go perft {depth}")
    t0 = time.monotonic()
    replies, last = await session.expect(
        lambda r: r.text.startswith("Nodes searched") or r.word == "bestmove" or r.is_error, wait,
        "'Nodes searched: <n>'")
    elapsed = time.monotonic() - t0
    if last.is_error:
        raise await _left_out(session, last)
    if last.word == "bestmove":
        raise CheckFailed(f"answered 'go perft {depth}' with {last.text[:40]!r} (perft not supported; "
                          "an engine without perft answers it with an error line)")
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


async def moves(session: CheckSession, game: protocol.Game, wait: float) -> str:
    """`moves` (the position already sent) lists exactly protocol/'s legal moves."""
    await session.send("moves")
    _, reply = await session.expect(lambda r: r.word == "moves" or r.is_error, wait, "the 'moves' line")
    if reply.is_error:
        raise await _left_out(session, reply)
    got = parse_moves_line(reply.text)
    expected = [str(m) for m in fresh(game).legal_moves()]
    problems = compare_counts({m: 1 for m in expected}, {m: got.count(m) for m in got})
    if problems:
        raise CheckFailed("; ".join(problems[:6]))
    return f"{len(expected)} legal moves agree with protocol/"


async def display(session: CheckSession) -> str:
    """`d` prints the position for people: some lines, before the next readyok."""
    await session.send("d")
    replies = await session.sync()
    errors = [r.text for r in replies if r.is_error]
    if errors:
        raise Skipped(f"not supported ({errors[0][:80]})")
    shown = [r.text for r in replies if r.text]
    if not shown:
        raise CheckFailed("printed nothing for 'd' (an engine without it answers with an error line)")
    return f"{len(shown)} lines"


async def _gui_answer(session: CheckSession, command: str, word: str) -> Reply:
    """The answer line of a GUI command; Skipped when the engine rejects it or stays silent."""
    await session.send(command)
    replies = await session.sync()
    answer = next((r for r in replies if r.word == word), None)
    if answer is None:
        error = next((r.text for r in replies if r.is_error), None)
        raise Skipped(f"not supported ({error[:80]})" if error else "not supported (no answer)")
    return answer


async def state(session: CheckSession, game_type: str, game: protocol.Game) -> str:
    """`state` (SPEC 9.11): one JSON object whose position is the canonical position string."""
    answer = await _gui_answer(session, "state", "state")
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


async def steps(session: CheckSession, game: protocol.Game) -> str:
    """`steps` (SPEC 9.11): its options that complete a move, from no steps, are legal moves."""
    answer = await _gui_answer(session, "steps", "steps")
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
