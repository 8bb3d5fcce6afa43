"""The engine's state between commands: game type, current position, random generator, strategy.

Every change is all-or-nothing: a `position` command is built on the side and
only replaces the current position when the whole command is valid, so a
rejected command leaves the previous position in place. Game modules are
imported on first use (see protocol.game_class), not at start-up.
"""

from __future__ import annotations

import random

from protocol import GAME_NAMES, game_class
from protocol.errors import GameOverError, IllegalMoveError, NotationError, PositionError
from protocol.game import Game
from protocol.messages import GoCommand, move_columns, parse_position_command

from .options import NO_SETTINGS, Options
from .strategies import Limits, PlayOptions, Strategy, make_strategy


class CommandError(ValueError):
    """A command the engine refuses; its text follows `info string error: `."""


class Session:
    """What the engine remembers between commands."""

    def __init__(self, options: Options):
        self.options = options
        self.variant = options.text("UCI_Variant")
        self.rng = random.Random(options.number("Seed"))
        self.strategy: Strategy | None = None
        """The strategy object, made on the first `go` after a change (its state lives across moves)."""
        self._game: Game | None = None
        self._fen: str | None = None
        self._moves: list[str] = []

    # -- game and position ----------------------------------------------------
    @property
    def game(self) -> Game:
        """The current position (the start position until `position` says otherwise)."""
        if self._game is None:
            self._game = game_class(self.variant).start()
        return self._game

    def set_variant(self, name: str) -> None:
        """Switch game type; the position becomes that game's start position."""
        self.variant = name
        self._reset_position()
        self.strategy = None

    def new_game(self) -> None:
        """`ucinewgame`: start position, fresh strategy state, generator reseeded from Seed."""
        self._reset_position()
        self.new_rng()
        self.strategy = None

    def new_rng(self) -> None:
        """A generator seeded from the Seed option (at start, `ucinewgame` and when Seed is set)."""
        self.rng = random.Random(self.options.number("Seed"))

    def get_strategy(self) -> Strategy:
        """The strategy named by the Strategy option, made on first use after a change (`search`
        with the SearchSettings option's variant of its settings, if one was set)."""
        if self.strategy is None:
            name = self.options.text("Strategy")
            changes = self.options.text("SearchSettings")
            if name == "search" and changes != NO_SETTINGS:
                from .strategies.search_strategy import SearchStrategy, search_settings  # only when asked for

                self.strategy = SearchStrategy(search_settings(changes))
            else:
                self.strategy = make_strategy(name)
        return self.strategy

    def prepare(self, strategy: bool = True) -> None:
        """One-off set-up for the current game type, so that no timed `go` pays for it.

        Plays one move from the start position (builds the notation grammar and the
        rules' lazy tables) and, with `strategy`, lets the strategy import and warm up
        what it will search with. Cheap when already done. The engine calls it on `uci`
        and `setoption UCI_Variant` (rules only: start-up stays fast) and on `isready`
        and `ucinewgame` (everything)."""
        game = game_class(self.variant).start()
        first = next(iter(game.legal_moves()))
        game.copy().play(str(first))
        if not strategy:
            return
        prepare = getattr(self.get_strategy(), "prepare", None)
        if prepare is not None:
            prepare(game)

    def limits(self, go: GoCommand) -> Limits:
        """The Limits of a `go` for the side to move (p1 = Dark, p2 = Light)."""
        time_left, increment = go.clock(self.game.turn)
        return Limits(time_left=time_left, increment=increment, movestogo=go.movestogo,
                      movetime=go.movetime, depth=go.depth, nodes=go.nodes, infinite=go.infinite)

    def play_options(self) -> PlayOptions:
        """The options every strategy plays the next `go` by (MoveOverhead, OwnBook, Skill Level)."""
        return PlayOptions(move_overhead=self.options.number("MoveOverhead"), own_book=self.options.flag("OwnBook"),
                           skill=self.options.number("Skill Level"))

    def _reset_position(self) -> None:
        self._game, self._fen, self._moves = None, None, []

    def set_position(self, line: str) -> None:
        """Apply a `position startpos|fen <string> [moves ...]` line, or raise CommandError and change nothing."""
        cmd = parse_position_command(line)
        columns = move_columns(line)
        if cmd.fen == self._fen and cmd.moves[: len(self._moves)] == self._moves and self._game is not None:
            game, done = self._game.copy(), len(self._moves)
        else:
            game, done = self._base_game(line, cmd.fen), 0
        for index in range(done, len(cmd.moves)):
            _play(game, cmd.moves[index], index, columns[index])
        self._game, self._fen, self._moves = game, cmd.fen, cmd.moves

    def _base_game(self, line: str, fen: str | None) -> Game:
        cls = game_class(self.variant)
        if fen is None:
            return cls.start()
        at = line.index(fen) + 1
        tag = fen.split(None, 1)[0].lower()
        if tag in GAME_NAMES and tag != self.variant:
            raise CommandError(
                f"position: column {at}: this is a {tag} position but UCI_Variant is {self.variant} "
                f"(send 'setoption name UCI_Variant value {tag}' first)"
            )
        try:
            return cls.from_position(fen)
        except PositionError as e:
            raise CommandError(f"position: bad position string at column {at + e.column - 1}: {e.message}") from None


def _play(game: Game, text: str, index: int, column: int) -> None:
    """Play move number index+1 of a position command, or raise CommandError naming it."""
    where = f"position: move {index + 1} {text!r} at column {column}"
    try:
        game.play(text)
    except GameOverError:
        raise CommandError(f"{where}: the game is already over") from None
    except IllegalMoveError as e:
        raise CommandError(f"{where}: illegal: {e.reason}") from None
    except NotationError as e:
        inside = f" at column {column + e.column - 1}" if e.column > 1 else ""
        raise CommandError(f"{where}: bad notation{inside}: {e.message}") from None
