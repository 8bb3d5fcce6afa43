"""The one list of games: each game is declared here once, and everything else iterates it.

A ``GameEntry`` says what code outside a game's module needs to know about it:
its name (the position-string tag and UCI_Variant value), where its ``Game``
class lives (imported on first use, keeping ``import protocol`` cheap), its
start position, which shapes of notation it uses, and how its score is read.
Adding a game is writing its module and one ``register(GameEntry(...))``
(see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

_FULL = "333334444555667"
"""One whole ISAAC set in hand, as a position string writes it."""


class MoveSyntax(StrEnum):
    """The shapes of move notation the grammar knows (SPEC.md section 3)."""

    PLACE_REMOVE = "place-remove"
    """``c3c7``, ``xc3c7:36`` or ``pass`` (ISAAC)."""
    PLACE_LEVEL = "place-level"
    """``c3c7``, ``c3c7^2`` or ``pass`` (FOUNDATIONS)."""
    SLIDE_PLAY = "slide-play"
    """Slides then a play, ``d4d8>d5d9,a0a2``, ``x4`` or ``pass`` (HARI)."""


@dataclass(frozen=True)
class GameEntry:
    """What the rest of isaac-arena needs to know about one game."""

    name: str
    """Lower-case tag: first field of its position strings, UCI_Variant value, record field."""
    title: str
    """How prose writes it: 'ISAAC'."""
    module: str
    """Dotted module holding the Game subclass."""
    class_name: str
    move_syntax: MoveSyntax
    move_help: str
    """Examples of its moves for error messages: 'c3c7, xc3c7:36 or pass'."""
    start: str
    """The start position string."""
    levels: bool = False
    """Pieces may stand on levels above 1 (``c3c7^2`` in positions)."""
    phase_and_scores: bool = False
    """Position strings end with a phase ('place'|'score') and scores 'd/l' (ISAAC's layout)."""
    lower_score_wins: bool = False
    """The game's measure (``Game.scores``) is better when lower (FOUNDATIONS: value left in hand)."""
    frame_numbers: bool = False
    """Pictures number the far edges 0-9 in the viewer's own frame (SPEC 1): ISAAC, whose counters count
    scores from each player's corner; in other games those numbers mean nothing and are left out."""
    measure: str = "{} points"
    """How prose shows one player's measure: ``measure.format(score)``, e.g. 'score 36'."""
    step_joiner: str = ""
    """How a move entered in several steps (SPEC 9.11) joins them in notation: ISAAC ':' (``xc3c7`` then
    ``36``: ``xc3c7:36``), HARI ',' (slides, then the play); '' when every move is one step."""
    book_by_default: bool = False
    """Matches start from the game's shipped balanced opening book unless told otherwise: set where the
    start position alone replays one game per colour between deterministic engines and a long piece
    played early decides the game (FOUNDATIONS, HARI)."""
    step_expander: str = ""
    """'module:function' answering a partly entered move (a ``protocol.steps.StepExpander``), set
    together with ``step_joiner``; '' when every move is one step (``protocol.steps.one_word_steps``)."""

    def game_class(self) -> type[Game]:
        """The Game subclass (its module is imported on first use)."""
        cls: type[Game] = getattr(import_module(self.module), self.class_name)
        return cls


_GAMES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Declare a game; its name must be new, lower-case letters only."""
    if not entry.name.isalpha() or entry.name != entry.name.lower():
        raise ValueError(f"game names are lower-case letters: {entry.name!r}")
    if entry.name in _GAMES:
        raise ValueError(f"game {entry.name!r} is already registered")
    if bool(entry.step_joiner) != bool(entry.step_expander):
        raise ValueError(f"game {entry.name!r}: step_joiner and step_expander go together")
    if entry.step_expander and ":" not in entry.step_expander:
        raise ValueError(f"game {entry.name!r}: step_expander is 'module:function', not {entry.step_expander!r}")
    _GAMES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a game declared with ``register`` (tests that declare a toy game clean up with it)."""
    del _GAMES[name]


def names() -> tuple[str, ...]:
    """Every registered game name, in registration order."""
    return tuple(_GAMES)


def entries() -> Iterator[GameEntry]:
    """Every registered game's entry, in registration order."""
    return iter(tuple(_GAMES.values()))


def lookup(name: str) -> GameEntry | None:
    """The entry of a game name (case and blanks ignored), or None if no game has it."""
    return _GAMES.get(name.strip().lower())


def entry(name: str) -> GameEntry:
    """The entry of a game name; ValueError listing the games when unknown."""
    found = lookup(name)
    if found is None:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(_GAMES)}")
    return found


register(GameEntry(
    name="isaac", title="ISAAC", module="protocol.games.isaac.rules", class_name="IsaacGame",
    move_syntax=MoveSyntax.PLACE_REMOVE, move_help="c3c7, xc3c7:36 or pass",
    start=f"isaac -/- {_FULL}/{_FULL} d - place 0/0", phase_and_scores=True, measure="score {}",
    frame_numbers=True,
    step_joiner=":", step_expander="protocol.games.isaac.steps:isaac_steps",
))
register(GameEntry(
    name="foundations", title="FOUNDATIONS", module="protocol.games.foundations.rules", class_name="FoundationsGame",
    move_syntax=MoveSyntax.PLACE_LEVEL, move_help="c3c7, c3c7^2 or pass",
    start=f"foundations -/- {_FULL}/{_FULL} d -", levels=True, lower_score_wins=True, measure="{} in hand",
    book_by_default=True,
))
register(GameEntry(
    name="hari", title="HARI", module="protocol.games.hari.rules", class_name="HariGame",
    move_syntax=MoveSyntax.SLIDE_PLAY, move_help="slides then a play, e.g. d4d8>d5d9,a0a2, or pass",
    start=f"hari -/- {_FULL}/{_FULL} d -", measure="{} on the board", book_by_default=True,
    step_joiner=",", step_expander="protocol.games.hari.steps:hari_steps",
))

__all__ = ["GameEntry", "MoveSyntax", "entries", "entry", "lookup", "names", "register", "unregister"]
