"""Engines from the command line (cutechess style) and from a TOML engines file.

Command line, one ``-engine`` per engine, ``key=value`` words::

    -engine name=A cmd="python -m engine" dir=. option.Strategy=greedy tc=10+0.1
    -each tc=st=0.05 option.MoveOverhead=20

Keys: ``name``, ``cmd`` (split like a shell would), ``arg`` (one more argument,
repeatable), ``dir`` (working directory), ``option.<Name>=<value>``, ``env.<NAME>=<value>`` (a
variable of the engine's environment, which otherwise holds only PATH, HOME and LANG:
referee/engines/environment.py), ``tc``, ``memory_mb``, ``cpu_seconds``, ``pause`` (``no`` for an
engine that ponders: it is then not paused while it waits for its turn, referee/engines/cpu.py);
``proto=uci`` is accepted for cutechess habits.

Engines file (``--engines-file engines.toml``)::

    [engines.A]
    cmd = "python -m engine"          # or a list: ["python", "-m", "engine"]
    dir = "."
    options = { Strategy = "greedy" }
    env = { OMP_NUM_THREADS = "1" }
    tc = "10+0.1"

With an engines file, ``-engine name=A`` picks engine A; other keys given on the
command line override the file's. Precedence, most specific first: the
engine's own setting, then ``-each``, then ``--tc`` / ``--memory-mb`` /
``--cpu-seconds``. Options of ``-each`` are merged under the engine's own.
"""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from protocol.messages import whole_number

from ..formats.textfile import UnreadableFile, read_text_file
from ..formats.timecontrol import TimeControl
from .environment import bad_env_name
from .process import EngineSpec

DEFAULT_TC = "10+0.1"
ENGINE_KEYS = ("name", "cmd", "arg", "dir", "tc", "memory_mb", "cpu_seconds", "proto", "sandbox",
               "writable", "readable", "pause")
REPEATABLE_KEYS = ("arg", "writable", "readable")
NEED_VALUE = ("name", "cmd", "dir", "tc", "memory_mb", "cpu_seconds", "proto", "pause")
SWITCH_WORDS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}
RESERVED_OPTIONS = ("UCI_Variant",)
"""Options the referee sets itself: the game comes from --game."""


class ConfigError(ValueError):
    """A command-line or engines-file mistake, said so a person can fix it."""


@dataclass
class EngineArgs:
    """The key=value words of one -engine or -each, sorted into fields."""

    values: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    writable: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)


def parse_engine_words(words: list[str], where: str) -> EngineArgs:
    """['name=A', 'option.X=1', ...] -> EngineArgs; ConfigError names the bad word."""
    out = EngineArgs()
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ConfigError(f"{where}: expected key=value, got {word!r} "
                              f"(keys: {', '.join(ENGINE_KEYS)}, option.<Name>, env.<NAME>)")
        if key.startswith("env."):
            name = key[len("env."):]
            problem = bad_env_name(name)
            if problem:
                raise ConfigError(f"{where}: {word!r}: {problem}")
            out.env[name] = value
        elif key.startswith("option."):
            name = key[len("option."):]
            if not name:
                raise ConfigError(f"{where}: {word!r} needs an option name after 'option.'")
            out.options[name] = value
        elif key == "arg":
            out.args.append(value)
        elif key in ("writable", "readable"):
            getattr(out, key).append(value)
        elif key in ENGINE_KEYS:
            if key in out.values:
                raise ConfigError(f"{where}: {key}= given twice")
            if not value and key in NEED_VALUE:
                raise ConfigError(f"{where}: {key}= needs a value (an empty one never means the default)")
            out.values[key] = value
        else:
            raise ConfigError(f"{where}: unknown key {key!r} in {word!r} "
                              f"(keys: {', '.join(ENGINE_KEYS)}, option.<Name>, env.<NAME>)")
    if out.values.get("proto", "uci").lower() != "uci":
        raise ConfigError(f"{where}: only proto=uci is spoken, not {out.values['proto']!r}")
    return out


def load_engines_file(path: str) -> dict[str, dict[str, Any]]:
    """{name: table} from a TOML file's [engines.<name>] tables, checked by schema.EnginesFileModel."""
    from ..formats.schema import EnginesFileModel, SchemaError, validate
    where = f"--engines-file {path}"
    try:
        data = tomllib.loads(read_text_file(Path(path), where, "a TOML file"))
    except UnreadableFile as exc:
        raise ConfigError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    try:
        validate(EnginesFileModel, data, where)
    except SchemaError as exc:
        raise ConfigError(str(exc)) from None
    engines: dict[str, dict[str, Any]] = data["engines"]
    return engines


def _split_cmd(cmd: object, where: str) -> list[str]:
    if isinstance(cmd, list):
        parts = [str(x) for x in cmd]
    else:
        try:
            parts = shlex.split(str(cmd))
        except ValueError as exc:
            raise ConfigError(f"{where}: cannot split cmd {cmd!r}: {exc}") from None
    if not parts:
        raise ConfigError(f"{where}: cmd is empty")
    return parts


def _int_value(value: object, what: str, where: str) -> int | None:
    """A bounded whole number (ASCII digits, or a TOML integer the schema already checked)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ConfigError(f"{where}: {what} needs a whole number, not {value!r}")
    try:
        number = whole_number(value) if isinstance(value, str) else value
    except ValueError:
        raise ConfigError(f"{where}: {what} needs a whole number, not {value!r}") from None
    check_limit(number, what, where)
    return number


LIMIT_MAX = {"memory_mb": "MAX_MEMORY_MB", "cpu_seconds": "MAX_CPU_SECONDS"}


def check_limit(number: int, what: str, where: str) -> None:
    """ConfigError unless 1 <= number <= the bound of `what` (memory_mb, cpu_seconds)."""
    from ..formats import schema
    top = getattr(schema, LIMIT_MAX[what])
    if not 1 <= number <= top:
        shown = number if len(str(number)) <= 25 else f"a {len(str(number))}-digit number"
        raise ConfigError(f"{where}: {what} must be in 1..{top}, not {shown}")


def _switch(value: object, key: str, where: str) -> bool:
    """yes/no (true/false, on/off; a TOML boolean) -> bool; ConfigError otherwise."""
    if isinstance(value, bool):
        return value
    found = SWITCH_WORDS.get(str(value).lower())
    if found is None:
        raise ConfigError(f"{where}: {key}={value!r}: expected yes or no")
    return found


def parse_tc(text: str, where: str) -> TimeControl:
    try:
        return TimeControl.parse(str(text))
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


@dataclass
class Defaults:
    """What applies to every engine unless it says otherwise (-each and the global flags)."""

    each: EngineArgs = field(default_factory=EngineArgs)
    tc: str | None = None
    memory_mb: int | None = None
    cpu_seconds: int | None = None
    margin_ms: int | None = None
    sandbox: str | None = None


def sandbox_paths(values: list[str], key: str, directory: str | None, where: str) -> list[str]:
    """Absolute paths of writable=/readable= (relative ones are inside the engine's dir); they must exist."""
    out = []
    for value in values:
        path = Path(directory or ".", value) if not Path(value).is_absolute() else Path(value)
        if not path.exists():
            raise ConfigError(f"{where}: {key}={value!r}: no such file or directory ({path})")
        out.append(str(path.resolve()))
    return out


def _file_list(value: object, key: str, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"{where}: {key} must be a path or a list of paths")


def build_engine(words: list[str], index: int, defaults: Defaults, file_engines: dict[str, dict[str, Any]]) -> EngineSpec:
    """One EngineSpec from an -engine's words, the engines file and the defaults."""
    where = f"-engine #{index + 1}"
    own = parse_engine_words(words, where)
    name = own.values.get("name")
    table = file_engines.get(name, {}) if name else {}
    if name and file_engines and not table and "cmd" not in own.values:
        raise ConfigError(f"{where}: no engine {name!r} in the engines file "
                          f"(it has: {', '.join(sorted(file_engines))})")
    if name:
        where = f"-engine {name}"
    cmd_source = own.values.get("cmd", table.get("cmd"))
    if cmd_source is None:
        raise ConfigError(f"{where}: needs cmd=\"<command>\" (or name=<engine in --engines-file>)")
    cmd = _split_cmd(cmd_source, where) + [str(a) for a in table.get("args", [])] + own.args
    name = name or Path(cmd[0]).name
    options = {**{k: str(v) for k, v in defaults.each.options.items()},
               **{k: _option_text(v) for k, v in table.get("options", {}).items()},
               **own.options}
    env = {**defaults.each.env, **table.get("env", {}), **own.env}
    for variable in env:
        problem = bad_env_name(variable)
        if problem:
            raise ConfigError(f"{where}: env.{variable}: {problem}")
    for given in options:   # option names are case-insensitive (SPEC 9.2)
        reserved = next((r for r in RESERVED_OPTIONS if r.lower() == given.lower()), None)
        if reserved is not None:
            raise ConfigError(f"{where}: option.{given}: {reserved} is set by the referee from --game; "
                              f"remove it")
    tc_text = (own.values.get("tc") or table.get("tc") or defaults.each.values.get("tc")
               or defaults.tc or DEFAULT_TC)
    tc = parse_tc(tc_text, f"{where}: tc")
    if defaults.margin_ms is not None:
        tc = replace(tc, margin_ms=defaults.margin_ms)
    directory = own.values.get("dir", table.get("dir", defaults.each.values.get("dir")))
    if directory is not None and not Path(directory).is_dir():
        raise ConfigError(f"{where}: dir={directory!r} is not a directory")

    def limit(key: str, fallback: int | None) -> int | None:
        value = own.values.get(key, table.get(key, defaults.each.values.get(key)))
        return _int_value(value, key, where) if value is not None else fallback

    pause = _switch(own.values.get("pause", table.get("pause", defaults.each.values.get("pause", True))),
                    "pause", where)
    sandbox = own.values.get("sandbox", table.get("sandbox", defaults.each.values.get("sandbox", defaults.sandbox)))
    writable = own.writable or _file_list(table.get("writable"), "writable", where) or defaults.each.writable
    readable = own.readable or _file_list(table.get("readable"), "readable", where) or defaults.each.readable
    if sandbox in ("", "none"):
        sandbox = None
    if sandbox is not None:
        from .sandbox import SANDBOXES
        if sandbox not in SANDBOXES:
            raise ConfigError(f"{where}: sandbox={sandbox!r} is not known (known: {', '.join(SANDBOXES)}, none)")
        if directory is None:
            raise ConfigError(f"{where}: sandbox={sandbox} needs dir=, the engine's own directory "
                              f"(the only one it sees)")
    elif writable or readable:
        raise ConfigError(f"{where}: writable= and readable= only mean something with sandbox=bwrap")
    return EngineSpec(name=name, cmd=cmd, cwd=str(directory) if directory is not None else None,
                      options=options, tc=tc, memory_mb=limit("memory_mb", defaults.memory_mb),
                      cpu_seconds=limit("cpu_seconds", defaults.cpu_seconds), sandbox=sandbox,
                      writable=sandbox_paths(writable, "writable", directory, where),
                      readable=sandbox_paths(readable, "readable", directory, where), pause=pause, env=env)


def _option_text(value: object) -> str:
    """TOML values as the text `setoption` sends (true/false lower-case, as UCI expects)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def build_engines(engine_words: list[list[str]], each_words: list[list[str]] | None,
                  engines_file: str | None, tc: str | None = None, memory_mb: int | None = None,
                  cpu_seconds: int | None = None, margin_ms: int | None = None,
                  sandbox: str | None = None) -> list[EngineSpec]:
    """Every engine of the command line, checked: unique names, valid commands and time controls."""
    each = EngineArgs()
    for words in each_words or []:
        part = parse_engine_words(words, "-each")
        if "name" in part.values or "cmd" in part.values or part.args:
            raise ConfigError("-each: name=, cmd= and arg= belong to one engine; use them in -engine")
        each.values.update(part.values)
        each.options.update(part.options)
        each.env.update(part.env)
        each.writable += part.writable
        each.readable += part.readable
    if tc is not None:
        parse_tc(tc, "--tc")
    if memory_mb is not None:
        check_limit(memory_mb, "memory_mb", "--memory-mb")
    if cpu_seconds is not None:
        check_limit(cpu_seconds, "cpu_seconds", "--cpu-seconds")
    defaults = Defaults(each, tc, memory_mb, cpu_seconds, margin_ms, sandbox)
    file_engines = load_engines_file(engines_file) if engines_file else {}
    if not engine_words and file_engines:
        engine_words = [[f"name={name}"] for name in file_engines]
    specs = [build_engine(words, i, defaults, file_engines) for i, words in enumerate(engine_words)]
    seen: dict[str, int] = {}
    for i, spec in enumerate(specs):
        if spec.name in seen:
            raise ConfigError(f"engines #{seen[spec.name] + 1} and #{i + 1} are both called {spec.name!r}; "
                              f"give each a distinct name=")
        seen[spec.name] = i
    kinds = sorted({spec.sandbox for spec in specs if spec.sandbox is not None})
    for kind in kinds:   # a missing bwrap is one clear error now, not a start failure per game
        from .sandbox import SandboxError, check_available
        try:
            check_available(kind)
        except SandboxError as exc:
            raise ConfigError(str(exc)) from None
    return specs


def engine_identity(spec: EngineSpec) -> dict[str, Any]:
    """What defines an engine for --resume (the spec as recorded)."""
    return spec.to_json()
