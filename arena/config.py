"""An arena is a directory: its `arena.toml` (what the host may edit), its database (SQLite by
default), the archives submitted and the bots unpacked from them.

The file is read strictly (pydantic): an unknown key, a value of the wrong type or out of bounds
is one message naming the key, never a traceback, so a host's typo cannot start a different arena.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool, StrictInt, StrictStr, ValidationError

from protocol import registry
from referee.formats.schema import ClosedModel, TimeControlText
from referee.formats.textfile import UnreadableFile, read_text_file
from referee.formats.timecontrol import TimeControl
from referee.matches.openings import OpeningBook, OpeningError, parse_source

CONFIG_NAME = "arena.toml"
DATABASE_ENV = "ISAAC_ARENA_DATABASE"
"""Overrides `database` of arena.toml (keeps a PostgreSQL password out of the file)."""


class ArenaConfigError(Exception):
    """The arena directory or its arena.toml cannot be used; the message says what and where."""


def _known_and_distinct(games: list[str]) -> list[str]:
    for game in games:
        if game not in registry.names():
            raise ValueError(f"unknown game {game!r}: one of {', '.join(registry.names())}")
    if len(set(games)) != len(games):
        raise ValueError("a game is named twice")
    return games


def _absolute(paths: list[str]) -> list[str]:
    for path in paths:
        if not os.path.isabs(path):
            raise ValueError(f"readable path {path!r} must be absolute")
    return paths


class Limits(ClosedModel):
    """What a bot process may use while it plays."""

    memory_mb: Annotated[StrictInt, Field(ge=16, le=1 << 20)] = 1024
    max_plies: Annotated[StrictInt, Field(ge=10, le=100_000)] = 1000
    start_timeout: Annotated[float, Field(gt=0, le=600)] = 10.0


class Build(ClosedModel):
    """What a bot's build command may use (it runs once per submission, in the sandbox)."""

    seconds: Annotated[StrictInt, Field(ge=1, le=24 * 3600)] = 300
    memory_mb: Annotated[StrictInt, Field(ge=16, le=1 << 20)] = 2048
    max_file_mb: Annotated[StrictInt, Field(ge=1, le=1 << 20)] = 256
    network: StrictBool = False
    log_kb: Annotated[StrictInt, Field(ge=1, le=10_240)] = 128


class Archive(ClosedModel):
    """What a submitted archive may hold."""

    max_mb: Annotated[StrictInt, Field(ge=1, le=4096)] = 20
    max_unpacked_mb: Annotated[StrictInt, Field(ge=1, le=65_536)] = 200
    max_files: Annotated[StrictInt, Field(ge=1, le=1_000_000)] = 2000


class Ladder(ClosedModel):
    """How the ladder plays and when it gives up on a bot."""

    games_per_pairing: Annotated[StrictInt, Field(ge=2, le=16, multiple_of=2)] = 2
    concurrency: Annotated[StrictInt, Field(ge=1, le=256)] = 1
    suspend_after: Annotated[StrictInt, Field(ge=1, le=10_000)] = 10
    check_timeout: Annotated[float, Field(gt=0, le=120)] = 5.0
    seed: StrictInt = 1


class ArenaConfig(ClosedModel):
    """arena.toml: docs/arena.md describes every key."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=80)] = "isaac-arena"
    games: Annotated[list[StrictStr], Field(min_length=1, max_length=3), AfterValidator(_known_and_distinct)]
    tc: TimeControlText = "st=0.1"
    openings: StrictStr = ""
    """'' (each game's default: the shipped balanced book for FOUNDATIONS and HARI), 'book',
    'startpos', 'random:PLIES' or a file of openings (relative to the arena directory)."""
    database: StrictStr = "sqlite:///arena.db"
    sandbox: Literal["bwrap", "none"] = "bwrap"
    readable: Annotated[list[StrictStr], AfterValidator(_absolute)] = []
    """Paths every bot may read in the sandbox (a shared runtime the host offers), absolute."""
    limits: Limits = Limits()
    build: Build = Build()
    archive: Archive = Archive()
    ladder: Ladder = Ladder()

    def time_control(self) -> TimeControl:
        return TimeControl.parse(self.tc)


class Arena:
    """An arena directory and its configuration, with the paths of what it keeps."""

    def __init__(self, directory: Path, config: ArenaConfig):
        self.dir = directory.resolve()
        self.config = config

    @property
    def archives(self) -> Path:
        return self.dir / "archives"

    @property
    def bots(self) -> Path:
        return self.dir / "bots"

    @property
    def finals(self) -> Path:
        return self.dir / "finals"

    def database_url(self) -> str:
        """The SQLAlchemy URL: $ISAAC_ARENA_DATABASE or arena.toml's, a SQLite path relative to the
        directory, and postgresql:// spelled for psycopg 3."""
        url = os.environ.get(DATABASE_ENV) or self.config.database
        return normalise_url(url, self.dir)

    def book(self, game: str) -> OpeningBook:
        """The openings of `game` as arena.toml says (the game's balanced book by default)."""
        text = self.config.openings or None
        if text and not text.startswith("random:") and text.lower() not in ("book", "startpos", "none"):
            text = str(self.dir / text)
        try:
            return OpeningBook(game, parse_source(text, game), self.config.ladder.seed)
        except OpeningError as exc:
            raise ArenaConfigError(f"{self.dir / CONFIG_NAME}: openings: {exc}") from None


def normalise_url(url: str, base: Path) -> str:
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        path = url[len("sqlite:///"):]
        if path and path != ":memory:":
            return f"sqlite:///{(base / path).resolve()}"
    return url


def describe_error(exc: ValidationError, where: str) -> str:
    """pydantic's errors as one line per problem: the key, what was wrong."""
    lines = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"]) or "(file)"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown key (see docs/arena.md for the keys of arena.toml)"
        lines.append(f"{where}: {key}: {message}")
    return "\n".join(lines)


def parse_config(text: str, where: str) -> ArenaConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArenaConfigError(f"{where}: not TOML: {exc}") from None
    try:
        return ArenaConfig.model_validate(data)
    except ValidationError as exc:
        raise ArenaConfigError(describe_error(exc, where)) from None


def load_arena(directory: str | Path) -> Arena:
    """The arena in `directory`; ArenaConfigError if it is not one or its arena.toml is wrong."""
    path = Path(directory)
    config_path = path / CONFIG_NAME
    if not config_path.is_file():
        raise ArenaConfigError(f"{path} is not an arena directory (no {CONFIG_NAME}; make one with "
                               f"isaac-arena init {path} --game GAME)")
    try:
        text = read_text_file(config_path, str(config_path))
    except UnreadableFile as exc:
        raise ArenaConfigError(str(exc)) from None
    return Arena(path, parse_config(text, str(config_path)))


def config_text(games: list[str], tc: str, sandbox: str, database: str, openings: str, name: str) -> str:
    """A new arena.toml, every key written with its default so the host sees what can be changed."""
    quoted = ", ".join(f'"{g}"' for g in games)
    return f'''# isaac-arena configuration: docs/arena.md describes every key. Restart `isaac-arena serve` after a change.
name = "{name}"
games = [{quoted}]         # each game pair plays one of them in turn; one rating across them
tc = "{tc}"                # the referee's time controls: "st=0.1", "10+0.1", "40/60", ...
openings = "{openings}"             # "" = each game's default (FOUNDATIONS and HARI: the balanced book), "book", "startpos", "random:4", a file
database = "{database}"   # or postgresql://user@host/dbname ($ISAAC_ARENA_DATABASE overrides it)
sandbox = "{sandbox}"           # "bwrap" (bubblewrap: no network, only its own files) or "none" (trusted bots only)
readable = []              # absolute paths every bot may read in the sandbox (a shared runtime)

[limits]                   # per bot process while it plays
memory_mb = 1024
max_plies = 1000
start_timeout = 10.0

[build]                    # the build command of a submission, in the sandbox
seconds = 300
memory_mb = 2048
max_file_mb = 256
network = false
log_kb = 128

[archive]                  # what a submitted archive may hold
max_mb = 20
max_unpacked_mb = 200
max_files = 2000

[ladder]
games_per_pairing = 2      # a game pair: the same opening with colours swapped
concurrency = 1            # games at once (at most the free cores: clocks stay fair)
suspend_after = 10         # a bot that fails this many games in a row is suspended
check_timeout = 5.0        # seconds per answer in the conformance check a submission must pass
seed = 1
'''
