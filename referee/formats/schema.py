"""One schema per file the referee reads or writes, validated with pydantic v2.

Files: records.jsonl (`RecordModel`, one per line), config.json (`RunConfigModel`), the engines
file (`EnginesFileModel`), opening files (`OpeningModel`, through config.json and openings.py)
and summary.json (`SummaryModel`). The models check types strictly (no "4" for 4, no 1.5 for a
whole number) and every number against a bound, so a bad value is one message naming the file,
the line, the field, what was found and what was expected (`SchemaError`), never a TypeError
deep inside a run. The engine never imports this module (pydantic stays off its start-up).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from protocol.messages import MAX_COUNT, MAX_MS

from .record import INFO_LINE_CHARS, INFO_LINES_KEPT
from .terminations import Termination
from .textfile import UnreadableFile, read_text_file

MAX_MEMORY_MB = 1 << 20
"""Largest memory limit per engine: 1 TiB (RLIMIT_AS is set from it)."""
MAX_CPU_SECONDS = 366 * 24 * 3600
"""Largest CPU-time limit per engine: a year of CPU."""
MAX_GAMES = 10_000_000
"""Largest number of games in one run."""
MAX_PLIES = 1_000_000

Ms = Annotated[StrictInt, Field(ge=0, le=MAX_MS)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]


def _known_game(name: str) -> str:
    from protocol import registry
    if name not in registry.names():
        raise ValueError(f"one of the games {', '.join(registry.names())}")
    return name


GameName = Annotated[StrictStr, AfterValidator(_known_game)]
"""A registered game's name (protocol.registry), checked when the file is read."""


def _time_control(text: str) -> str:
    from .timecontrol import TimeControl
    TimeControl.parse(text)   # ValueError names the part
    return text


TimeControlText = Annotated[StrictStr, AfterValidator(_time_control)]
"""A time control as the referee's --tc spells it ('st=0.1', '40/60+1'), checked when the file is read."""

Result = Literal["1-0", "0-1", "1/2-1/2"]

M = TypeVar("M", bound=BaseModel)


class SchemaError(ValueError):
    """A file (or one line of it) that does not match its schema; the text says where and why."""


class _Strict(BaseModel):
    """Strict types; unknown keys ignored (newer writers may add fields, SPEC 10.4)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class ClosedModel(_Strict):
    """Strict types and no unknown keys: files people write by hand, where a typo must be caught."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# -- engines -------------------------------------------------------------------------------

OptionValue = StrictStr | StrictBool | StrictInt | float
Paths = StrictStr | list[StrictStr]


class EngineTableModel(ClosedModel):
    """One `[engines.<name>]` table of an engines file."""

    cmd: StrictStr | Annotated[list[StrictStr], Field(min_length=1)]
    args: list[StrictStr] = []
    dir: StrictStr | None = None
    options: dict[StrictStr, OptionValue] = {}
    tc: TimeControlText | None = None
    memory_mb: Annotated[StrictInt, Field(ge=1, le=MAX_MEMORY_MB)] | None = None
    cpu_seconds: Annotated[StrictInt, Field(ge=1, le=MAX_CPU_SECONDS)] | None = None
    sandbox: StrictStr | None = None
    writable: Paths | None = None
    readable: Paths | None = None
    pause: StrictBool | None = None
    env: dict[StrictStr, StrictStr] = {}

    @field_validator("cmd")
    @classmethod
    def _cmd_not_blank(cls, value: str | list[str]) -> str | list[str]:
        if isinstance(value, str) and not value.strip():
            raise ValueError("cmd is empty")
        return value


class EnginesFileModel(_Strict):
    """An engines file: `[engines.<name>]` tables (other top-level tables are left alone)."""

    engines: Annotated[dict[StrictStr, EngineTableModel], Field(min_length=1)]


class EngineModel(_Strict):
    """An engine as stored in a record (`dark`, `light`) and in config.json (EngineSpec.to_json)."""

    name: StrictStr
    cmd: Annotated[list[StrictStr], Field(min_length=1)]
    cwd: StrictStr | None = None
    options: dict[StrictStr, StrictStr] = {}
    tc: TimeControlText | None = None
    memory_mb: Annotated[StrictInt, Field(ge=1, le=MAX_MEMORY_MB)] | None = None
    cpu_seconds: Annotated[StrictInt, Field(ge=1, le=MAX_CPU_SECONDS)] | None = None
    sandbox: StrictStr | None = None
    writable: list[StrictStr] = []
    readable: list[StrictStr] = []
    pause: StrictBool = True
    env: dict[StrictStr, StrictStr] = {}


# -- records ---------------------------------------------------------------------------------

class SideModel(_Strict):
    """`dark` / `light` of a record: the engine's name; the rest (EngineSpec.to_json) typed when given."""

    name: StrictStr
    cmd: list[StrictStr] | None = None
    cwd: StrictStr | None = None
    options: dict[StrictStr, StrictStr] = {}
    tc: StrictStr | None = None
    memory_mb: Annotated[StrictInt, Field(ge=1, le=MAX_MEMORY_MB)] | None = None
    cpu_seconds: Annotated[StrictInt, Field(ge=1, le=MAX_CPU_SECONDS)] | None = None

class MoveModel(_Strict):
    move: StrictStr
    ms: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
    info: dict[StrictStr, Any] | None = None


class InfoLineModel(_Strict):
    """One `info` line of a forfeited move: when the referee read it (ms since `go`) and its text (cut)."""

    ms: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
    text: Annotated[StrictStr, Field(max_length=INFO_LINE_CHARS)]


class ForfeitedMoveModel(_Strict):
    """`forfeited_move` of a record: what the referee saw during the `go` the game was lost in."""

    ms: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
    allowed_ms: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)] | None = None
    move: StrictStr | None = None
    info: Annotated[list[InfoLineModel], Field(max_length=INFO_LINES_KEPT)] = []


class RecordModel(_Strict):
    """One line of records.jsonl (SPEC 10.4)."""

    game_id: Annotated[StrictInt, Field(ge=0, le=MAX_GAMES)]
    game_type: GameName
    rules_version: StrictStr
    start_position: StrictStr
    opening: list[StrictStr]
    dark: SideModel
    light: SideModel
    time_control: dict[Literal["dark", "light"], StrictStr | None]
    moves: list[MoveModel]
    result: Result
    termination: Termination
    reason: StrictStr
    final_scores: Annotated[list[StrictInt], Field(max_length=2)]
    final_position: StrictStr
    pair: Annotated[StrictInt, Field(ge=0)] | None = None
    round: Annotated[StrictInt, Field(ge=0)] | None = None
    started_at: StrictStr = ""
    duration_s: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 0.0
    forfeited_move: ForfeitedMoveModel | None = None
    seed: Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] | None = None

    @field_validator("termination", mode="before")
    @classmethod
    def _termination_text(cls, value: object) -> object:
        if isinstance(value, str):   # strict mode would want the enum object itself
            try:
                return Termination(value)
            except ValueError:
                raise ValueError(f"expected one of {', '.join(repr(t.value) for t in Termination)}") from None
        return value

    @field_validator("final_scores")
    @classmethod
    def _two_or_none(cls, value: list[int]) -> list[int]:
        if len(value) not in (0, 2):
            raise ValueError("expected [dark, light] or [] (a forfeit)")
        return value

    @model_validator(mode="after")
    def _forfeited_move_only_in_a_forfeit(self) -> RecordModel:
        if self.forfeited_move is not None and not self.termination.is_forfeit:
            raise ValueError(f"forfeited_move: found one in a game that ended {self.termination.value!r}; "
                             "expected it only when a forfeit ended the game")
        return self


# -- openings and run configuration ---------------------------------------------------------

class OpeningModel(_Strict):
    """One opening: a start position (None: the game's start) and moves played from it."""

    start_position: StrictStr | None = None
    moves: list[StrictStr] = []


class IdentityModel(_Strict):
    """What defines the games of a run (see referee/cli/prepare.py)."""

    command: Literal["match", "tournament"]
    game: GameName
    games: Annotated[StrictInt, Field(ge=1, le=MAX_GAMES)]
    format: StrictStr | None = None
    rounds: Annotated[StrictInt, Field(ge=1, le=MAX_GAMES)] = 1
    engines: Annotated[list[EngineModel], Field(min_length=2)]
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
    openings: dict[StrictStr, Any]
    max_plies: Annotated[StrictInt, Field(ge=1, le=MAX_PLIES)]
    sprt: dict[StrictStr, Any] | None = None


class RandomCheckModel(_Strict):
    """How config.json pins random openings drawn on demand: a digest of the first `count`."""

    count: Annotated[StrictInt, Field(ge=0, le=MAX_GAMES)]
    sha256: Annotated[StrictStr, Field(pattern="^[0-9a-f]{64}$")]


class RunConfigModel(_Strict):
    """config.json of a run directory; every opening must replay legally in the run's game."""

    version: Literal[1]
    identity: IdentityModel
    openings: list[OpeningModel]
    openings_source: StrictStr | None = None
    created_at: StrictStr = ""
    random_openings_check: RandomCheckModel | None = None

    @model_validator(mode="after")
    def _openings_replay(self) -> RunConfigModel:
        for number, opening in enumerate(self.openings):
            problem = opening_problem(self.identity.game, opening)
            if problem:
                raise ValueError(f"openings.{number}: {problem}")
        return self


def opening_problem(game_name: str, opening: OpeningModel) -> str | None:
    """Why an opening cannot be played in `game_name` (bad position, illegal move), or None."""
    from protocol import game_class
    from protocol.errors import ArenaError
    try:
        cls = game_class(game_name)
        game = cls.start() if opening.start_position is None else cls.from_position(opening.start_position)
    except (ArenaError, ValueError) as exc:
        return f"start position: {exc}"
    for index, move in enumerate(opening.moves):
        try:
            game.play(move)
        except (ArenaError, ValueError) as exc:
            return f"move {index + 1} {move!r}: {exc}"
    return None


class SummaryModel(_Strict):
    """summary.json: the fields a reader relies on (the rest is statistics, free in shape)."""

    command: Literal["match", "tournament"]
    game: GameName
    out: StrictStr
    games_planned: Count
    games_recorded: Count
    games_played_now: Count
    stopped: StrictStr
    complete: StrictBool
    seconds: Annotated[float, Field(ge=0, allow_inf_nan=False)]
    terminations: dict[StrictStr, Count]
    engines: list[dict[StrictStr, Any]]
    standings: list[StrictStr]


# -- validation with one message ------------------------------------------------------------

def describe(error: ValidationError, where: str) -> str:
    """The first problem of a ValidationError as one line: where, field, found, expected."""
    first = error.errors(include_url=False)[0]
    field = ".".join(str(p) for p in first["loc"] if not _is_type_tag(p)) or "(the whole value)"
    more = error.error_count() - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    if first["type"] == "extra_forbidden":
        return f"{where}: field {field}: unknown key (a typo? see the documented keys){tail}"
    if first["type"] == "missing":
        return f"{where}: field {field}: missing, expected a value{tail}"
    if not first["loc"]:   # a check of the whole file (model_validator) says it all itself
        return f"{where}: {first['msg'].removeprefix('Value error, ')}{tail}"
    found = _shown(first.get("input"))
    if first["type"] == "value_error":   # our own check: its message says what is wrong
        return f"{where}: field {field}: found {found}: {first['msg'].removeprefix('Value error, ')}{tail}"
    expected = first["msg"].removeprefix("Input should be ")
    return f"{where}: field {field}: found {found}, expected {expected}{tail}"


def _is_type_tag(part: object) -> bool:
    """pydantic names the branch of a union in the location ('str', 'list[str]'): not a field."""
    return isinstance(part, str) and (part in ("str", "int", "bool", "float", "none", "list", "dict")
                                      or "[" in part)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr) if not isinstance(value, Mapping) \
        else "an object with keys " + ", ".join(map(str, list(value)[:8]))
    return text if len(text) <= 80 else text[:77] + "..."


def validate(model: type[M], data: object, where: str) -> M:
    """`model` from decoded JSON/TOML data, or SchemaError saying where and what is wrong."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise SchemaError(describe(exc, where)) from None


def load_json(model: type[M], path: Path) -> tuple[dict[str, Any], M]:
    """(the raw object, its model) of a JSON file; SchemaError for anything unreadable or invalid."""
    try:
        data = json.loads(read_text_file(path, str(path)))
    except UnreadableFile as exc:
        raise SchemaError(str(exc)) from None
    except ValueError as exc:
        raise SchemaError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise SchemaError(f"{path}: expected a JSON object, found {type(data).__name__}")
    return data, validate(model, data, str(path))
