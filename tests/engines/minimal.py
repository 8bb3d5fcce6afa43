"""The least an engine needs to play in a tournament: the handshake, `isready`, `position`, `go`
and `bestmove` (a uniform random legal move), `quit`. No `id`, no error lines, no `d`, `moves`,
perft, `stop` or GUI commands: anything else is ignored in silence.

Written apart from tests/engines/bad/good_random.py on purpose: `isaac-referee check` must tell
this engine "required: PASS" although most recommended checks fail.
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import protocol


def main() -> None:
    rng = random.Random(1)
    variant = protocol.GAME_NAMES[0]
    game = protocol.new_game(variant)
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        reply: list[str] = []
        if words[0] == "uci":
            reply = ["option name UCI_Variant type combo default " + variant
                     + "".join(f" var {name}" for name in protocol.GAME_NAMES), "uciok"]
        elif words[0] == "isready":
            reply = ["readyok"]
        elif words[:4] == ["setoption", "name", "UCI_Variant", "value"] and words[4:5]:
            if words[4] in protocol.GAME_NAMES:
                variant = words[4]
        elif words[0] == "position" and words[1:2] == ["startpos"]:
            game = protocol.new_game(variant)
            for move in words[3:]:
                game.play(move)
        elif words[0] == "position" and words[1:2] == ["fen"]:
            text = raw.split(None, 2)[2]
            head, _, moves = text.partition(" moves ")
            game = protocol.game_from_position(head.strip())
            for move in moves.split():
                game.play(move)
        elif words[0] == "go":
            move = game.random_move(rng)
            reply = [f"bestmove {move if move is not None else '(none)'}"]
        elif words[0] == "quit":
            return
        for line in reply:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
