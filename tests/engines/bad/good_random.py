"""A correct, minimal random engine built on protocol/ only, so referee tests need no engine/.

Misbehaving test engines subclass RandomEngine and override one method each.
Answers `go` at once (uniform random legal move); `go infinite` holds its move until `stop`.
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))

import protocol
from protocol.errors import ArenaError
from protocol.messages import (
    OptionSpec,
    ProtocolError,
    format_bestmove,
    info_string,
    parse_go,
    parse_position_command,
    parse_setoption,
    split_command,
)

OPTIONS = [
    OptionSpec("UCI_Variant", "combo", "isaac", vars=list(protocol.GAME_NAMES)),
    OptionSpec("Seed", "spin", "0", 0, 2**31 - 1),
]


class RandomEngine:
    name = "good_random"

    def __init__(self):
        self.variant = "isaac"
        self.seed = 0
        self.rng = random.Random(0)
        self.game = protocol.new_game(self.variant)
        self.pending = None          # move held back during `go infinite`
        self.moves_seen: list[str] = []

    # -- io ------------------------------------------------------------------
    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def error(self, what: str) -> None:
        self.say(info_string(f"error: {what}"))

    def run(self) -> None:
        for raw in sys.stdin:
            line = raw.strip()
            if line:
                if self.handle(line) is False:
                    return

    # -- commands --------------------------------------------------------------
    def handle(self, line: str):
        word, rest = split_command(line)
        handler = getattr(self, "cmd_" + word, None) if word.isidentifier() else None
        if handler is None:
            self.error(f"unknown command {word[:40]!r}")
            return None
        try:
            return handler(line, rest)
        except (ProtocolError, ArenaError, ValueError) as exc:
            self.error(str(exc))
            return None

    def cmd_uci(self, line, rest):
        self.say(f"id name {self.name}")
        self.say("id author isaac-arena tests")
        for option in OPTIONS:
            self.say(option.format())
        self.say("uciok")

    def cmd_isready(self, line, rest):
        self.say("readyok")

    def cmd_setoption(self, line, rest):
        opt = parse_setoption(line)
        spec = next((o for o in OPTIONS if o.name.lower() == opt.name.lower()), None)
        if spec is None:
            raise ValueError(f"unknown option {opt.name!r}")
        value = spec.coerce(opt.value)
        if spec.name == "UCI_Variant":
            self.variant = value
            self.game = protocol.new_game(value)
        else:
            self.seed = value
            self.rng = random.Random(value)

    def cmd_ucinewgame(self, line, rest):
        self.game = protocol.new_game(self.variant)
        self.rng = random.Random(self.seed)

    def cmd_position(self, line, rest):
        cmd = parse_position_command(line)
        game = protocol.new_game(self.variant) if cmd.fen is None else protocol.game_class(self.variant).from_position(cmd.fen)
        for text in cmd.moves:
            game.play(text)
        self.game = game
        self.moves_seen = cmd.moves

    def cmd_go(self, line, rest):
        go = parse_go(line)
        if go.perft is not None:
            return self.perft(go.perft)
        move = self.choose(go)
        if go.infinite:
            self.pending = move
        else:
            self.answer(move)

    def cmd_stop(self, line, rest):
        if self.pending is not None:
            move, self.pending = self.pending, None
            self.answer(move)

    def cmd_moves(self, line, rest):
        self.say(" ".join(["moves"] + [str(m) for m in self.game.legal_moves()]))

    def cmd_d(self, line, rest):
        self.say(f"position {self.game.position()}")

    def cmd_quit(self, line, rest):
        return False

    # -- play ------------------------------------------------------------------
    def choose(self, go):
        """A uniformly random legal move, 'pass' included, or None when the game is over."""
        move = self.game.random_move(self.rng)
        return None if move is None else str(move)

    def answer(self, move) -> None:
        self.say(f"info depth 1 nodes {self.game.count_legal_moves()} score cp 0 pv {move or ''}".rstrip())
        self.say(format_bestmove(move))

    def perft(self, depth: int) -> None:
        total = 0
        for move, count in self.game.perft_divide(depth) if depth > 0 else []:
            self.say(f"{move}: {count}")
            total += count
        self.say("")
        self.say(f"Nodes searched: {total if depth > 0 else 1}")


if __name__ == "__main__":
    RandomEngine().run()
