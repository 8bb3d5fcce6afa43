"""The participants' kit as the tests see it: where the starters live, how the compiled ones are built
(into a temporary directory, never into the source tree) and a small line client for a running starter."""

from __future__ import annotations

import os
import queue
import random
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import protocol
from tests.support.paths import REPO

EXAMPLES = REPO / "examples"
PYTHON_STARTER = EXAMPLES / "python" / "starter.py"
C_DIR = EXAMPLES / "c"
C_FLAGS = ["-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-std=c11"]
"""docs/bots.md's one-line build, made strict: a warning fails the build."""
JS_STARTER = EXAMPLES / "js" / "starter.js"
RUST_DIR = EXAMPLES / "rust"
DEBIAN_TOOLCHAIN = Path("/usr/bin")
"""Where Debian 12's cargo and rustc (1.63, the oldest the Rust starter promises to build with) live;
CI installs them."""


def c_sources() -> list[Path]:
    return sorted(C_DIR.glob("*.c"))


def build_c_starter(into: Path) -> Path:
    """Compile examples/c with gcc into `into`; AssertionError with gcc's output if it fails."""
    gcc = shutil.which("gcc")
    assert gcc is not None, "gcc is not installed (apt-get install gcc)"
    binary = into / "starter"
    done = subprocess.run([gcc, *C_FLAGS, "-o", str(binary), *map(str, c_sources())], cwd=into,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr, f"gcc failed or warned:\n{done.stderr}"
    return binary


def build_rust_starter(into: Path, toolchain: Path | None = None) -> Path:
    """`cargo build --release` of examples/rust with its target directory in `into`, by the cargo and
    rustc on PATH or those in the folder `toolchain`; AssertionError with cargo's output if it fails
    or warns."""
    cargo = str(toolchain / "cargo") if toolchain else shutil.which("cargo")
    assert cargo is not None, "cargo is not installed (apt-get install cargo)"
    env = {**os.environ, "CARGO_TARGET_DIR": str(into)} | ({"RUSTC": str(toolchain / "rustc")} if toolchain else {})
    done = subprocess.run([cargo, "build", "--release", "--offline", "--manifest-path", str(RUST_DIR / "Cargo.toml")],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0 and "warning" not in done.stderr, f"cargo failed or warned:\n{done.stderr}"
    return into / "release" / "isaac-starter"


def random_game_positions(game_type: str, seeds: range) -> Iterator[tuple[int, protocol.Game, list[str]]]:
    """Every position of seeded random games of protocol/ (HARI: uniform among all moves, so most of
    them slide), with the game's seed and the plies that led there (the game object moves on: read it
    before the next position is drawn)."""
    for seed in seeds:
        rng = random.Random(seed)
        game = protocol.new_game(game_type)
        plies: list[str] = []
        while True:
            yield seed, game, plies
            move = game.random_move(rng)
            if move is None:
                break
            game.push(move)
            plies.append(str(move))


class Starter:
    """A starter engine in its own process group: send lines, read them with timeouts."""

    def __init__(self, cmd: list[str], cwd: Path | None = None):
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def read_until(self, done: Callable[[str], bool], timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first `done` accepts."""
        out: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError(f"no answer within {timeout} s after {out[-3:]}") from None
            if line is None:
                raise EOFError(f"the starter closed its output after {out[-3:]}")
            out.append(line)
            if done(line):
                return out

    def ask(self, line: str, done: Callable[[str], bool]) -> list[str]:
        self.send(line)
        return self.read_until(done)

    def sync(self) -> list[str]:
        """Every line before the `readyok` of an `isready` sent now."""
        return self.ask("isready", lambda text: text == "readyok")[:-1]

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        self.reader.join(timeout=10)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except BrokenPipeError:
                    pass
