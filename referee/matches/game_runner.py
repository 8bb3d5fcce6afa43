"""One game between two engine players, every move checked by protocol/.

The runner owns the true position (a protocol Game) and the clocks; engines only
propose moves. Whatever an engine does, play_game returns a GameRecord: the rules
end the game ('normal'), the ply cap adjudicates a draw, or one engine forfeits
with a Termination (referee/formats/terminations.py) and one precise sentence.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import protocol
from protocol.board import COLOR_NAME, DARK, LIGHT
from protocol.errors import GameOverError, IllegalMoveError, NotationError
from protocol.messages import PositionCommand
from protocol.moves import Move
from protocol.notation import parse_move as parse_notation

from ..engines.player import EngineFailure, EnginePlayer
from ..formats.record import ForfeitedMove, GameRecord, MoveRecord
from ..formats.terminations import Termination
from ..formats.timecontrol import TimeControl
from .clock import Clock, go_command


@dataclass
class GameSpec:
    game_id: int
    game_type: str
    start_position: str | None         # None: the game's start position
    opening: list[str]                 # plies played from it before the engines take over
    dark_tc: TimeControl
    light_tc: TimeControl
    pair: int | None = None
    round: int | None = None
    max_plies: int = 1000              # adjudicate as a draw past this (these games are finite; safety only)
    seed: int | None = None            # the game's seed, for engines that declare a Seed option


def setup_position(spec: GameSpec) -> tuple[protocol.Game, list[str]]:
    """The position after the opening, and the opening in canonical notation.

    Raises ValueError (a bad match configuration, not an engine's fault) if the start position
    is not of spec.game_type or an opening move is not legal."""
    if spec.start_position:
        game = protocol.game_from_position(spec.start_position)
        if game.name != spec.game_type.lower():
            raise ValueError(f"game {spec.game_id}: start position is {game.name}, not {spec.game_type}")
    else:
        game = protocol.new_game(spec.game_type)
    canonical = []
    for ply, text in enumerate(spec.opening, 1):
        try:
            canonical.append(str(game.play(text)))
        except (NotationError, IllegalMoveError) as exc:
            raise ValueError(f"game {spec.game_id}: opening ply {ply} {text!r}: {exc}") from None
    return game, canonical


def _side_name(color: int, player: EnginePlayer) -> str:
    return f"{COLOR_NAME[color]} ({player.name})"


def _forfeit_result(loser: int) -> str:
    return "0-1" if loser == DARK else "1-0"


class _Game:
    """The state of one running game; small methods so each rule of refereeing reads on its own."""

    def __init__(self, spec: GameSpec, dark: EnginePlayer, light: EnginePlayer):
        self.spec = spec
        self.players = (dark, light)
        self.clocks = (Clock(spec.dark_tc), Clock(spec.light_tc))
        self.game, self.opening = setup_position(spec)
        self.start_fen = spec.start_position or None
        self.moves: list[MoveRecord] = []
        self.started_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.t0 = time.monotonic()
        self.on_move: Callable[[str, protocol.Game], None] | None = None

    def position_command(self) -> str:
        played = self.opening + [m.move for m in self.moves]
        return PositionCommand(self.start_fen, played).format()

    def record(self, result: str, termination: Termination, reason: str, scores: list[int],
               forfeited_move: ForfeitedMove | None = None) -> GameRecord:
        dark, light = self.players
        start = self.start_fen or protocol.new_game(self.spec.game_type).position()
        return GameRecord(
            game_id=self.spec.game_id, game_type=self.spec.game_type.lower(),
            rules_version=protocol.RULES_VERSION, start_position=start, opening=list(self.opening),
            dark=dark.spec.to_json(), light=light.spec.to_json(),
            time_control={"dark": str(self.spec.dark_tc), "light": str(self.spec.light_tc)},
            moves=self.moves, result=result, termination=termination, reason=reason,
            final_scores=scores, final_position=self.game.position(), pair=self.spec.pair,
            round=self.spec.round, started_at=self.started_at,
            duration_s=round(time.monotonic() - self.t0, 3), forfeited_move=forfeited_move, seed=self.spec.seed)

    def forfeit(self, color: int, failure: EngineFailure) -> GameRecord:
        reason = f"{_side_name(color, self.players[color])} {failure.detail}"
        return self.record(_forfeit_result(color), failure.termination, reason, [], failure.forfeited_move)

    def finished(self) -> GameRecord:
        result = self.game.result()
        if result is None:
            raise ValueError("the game is not over")
        return self.record(result.text, Termination.NORMAL, result.reason, list(result.scores))

    async def one_move(self, color: int) -> None:
        """Ask the side to move for a move and play it; EngineFailure (with what the referee saw of
        the move: its forfeited_move) if it does wrong."""
        player = self.players[color]
        try:
            await self._one_move(color)
        except EngineFailure as failure:
            if failure.forfeited_move is None:
                failure.forfeited_move = player.forfeited_move(failure)
            raise

    async def _one_move(self, color: int) -> None:
        player, clock = self.players[color], self.clocks[color]
        go = go_command(self.clocks[DARK], self.clocks[LIGHT], color).format()
        move_text, info, elapsed = await player.go(self.position_command(), go, clock.deadline_s(),
                                                   allowed_ms=clock.allowed_ms())
        allowed = clock.allowed_ms()
        clock.stop(elapsed)
        if clock.flagged:   # the player checks this too; the clock is the referee's own word
            overrun = max(0, elapsed - (allowed or 0))
            raise EngineFailure(Termination.TIME_FORFEIT, f"exceeded its time by {overrun} ms (answered {move_text!r} after "
                                f"{elapsed} ms; {allowed} ms allowed)", overrun_ms=overrun, elapsed_ms=elapsed,
                                move=move_text)
        move = self.check_move(move_text)
        self.game.push(move)
        self.moves.append(MoveRecord(str(move), elapsed, info))
        if self.on_move is not None:
            self.on_move(str(move), self.game)

    def check_move(self, text: str) -> Move:
        """The canonical legal move for `text`, or an EngineFailure naming the fault."""
        if text == "(none)":
            moves = self.game.count_legal_moves()
            raise EngineFailure(Termination.ILLEGAL_MOVE, f"answered 'bestmove (none)' but the game is not over "
                                f"({moves} legal moves)", move=text)
        try:
            return _known_move(self.game, text)
        except GameOverError as exc:
            raise EngineFailure(Termination.ILLEGAL_MOVE, f"played {text} after the game ended: {exc.reason}", move=text) from None
        except IllegalMoveError as exc:
            raise EngineFailure(Termination.ILLEGAL_MOVE, f"played illegal move {text}: {exc.reason}", move=text) from None
        except NotationError as exc:
            raise EngineFailure(Termination.MALFORMED_OUTPUT, f"sent a move that is not notation: {text!r} "
                                f"(column {exc.column}: {exc.message})", move=text) from None


PARSED_MOVES = 8192
"""Notation texts whose parse is kept (moves recur from game to game; a parse costs 20-50 us)."""
_parsed: dict[tuple[str, str], Move] = {}


def _known_move(game: protocol.Game, text: str) -> Move:
    """game.parse_move(text), with the notation's parse remembered: the legality is checked every
    time (check_move); bad notation or an illegal move goes through parse_move itself, so the error
    names the text exactly as the engine sent it."""
    key = (game.name, text)
    move = _parsed.get(key)
    if move is None:
        try:
            move = parse_notation(game.name, text)
        except NotationError:
            return game.parse_move(text)      # raises, with the column
        if len(_parsed) >= PARSED_MOVES:
            _parsed.clear()
        _parsed[key] = move
    try:
        return game.check_move(move)
    except (IllegalMoveError, GameOverError):
        return game.parse_move(text)          # raises, naming the engine's own text


async def _start_players(state: _Game, game_type: str, seed: int | None) -> None:
    """Start whichever players are not running (at the same time), then tell both the game.
    If both fail, Dark's failure decides the record and Light's is added to the reason."""
    starting = [p for p in state.players if not p.alive]
    outcomes = await asyncio.gather(*(p.start() for p in starting), return_exceptions=True)
    failures = {}
    for player, outcome in zip(starting, outcomes):
        if isinstance(outcome, EngineFailure):
            failures[state.players.index(player)] = outcome
        elif isinstance(outcome, BaseException):
            raise outcome
    if failures:
        first = min(failures)
        failure = failures[first]
        if len(failures) == 2:
            failure.detail += f"; {_side_name(LIGHT, state.players[LIGHT])} also {failures[LIGHT].detail}"
        raise _SideFailure(first, failure)
    for color in (DARK, LIGHT):
        try:
            await state.players[color].new_game(game_type, seed)
        except EngineFailure as failure:
            raise _SideFailure(color, failure) from None


class _SideFailure(Exception):
    def __init__(self, color: int, failure: EngineFailure):
        self.color, self.failure = color, failure


async def play_game(spec: GameSpec, dark: EnginePlayer, light: EnginePlayer,
                    on_move: Callable[[str, protocol.Game], None] | None = None) -> GameRecord:
    """Play one game to its end. Never raises for engine misbehaviour (ValueError for a bad spec).

    A player that is not running is started here; a player that fails is quit/killed before
    this returns, and started again by the next play_game it takes part in. `on_move(move,
    game)` is told each move played (for live viewers; the game is the runner's own: read only)."""
    state = _Game(spec, dark, light)
    state.on_move = on_move
    color = DARK
    try:
        try:
            await _start_players(state, spec.game_type, spec.seed)
        except _SideFailure as side:
            color, failure = side.color, side.failure
            raise failure from None
        while not state.game.is_over():
            if len(state.moves) >= spec.max_plies:
                return state.record("1/2-1/2", Termination.ADJUDICATION,
                                    f"adjudicated a draw after {spec.max_plies} plies (safety cap)", [])
            color = state.game.turn
            await state.one_move(color)
        return state.finished()
    except EngineFailure as failure:
        for player in state.players:
            if player.failed is not None or player is state.players[color]:
                player.failed = player.failed or failure
                await player.quit()
        return state.forfeit(color, failure)
