"""A test engine that tells what the GUI asked of it: it declares `Skill Level` (as the reference
engine does), and on each `go` reports `info string skill <n> go <the go line's limits>` and a PV of
a placement, then moves: after the `movetime` it was given, or, given a clock, only when told to
`stop` (so a test can see the Stop button at work). Its move is the first legal placement.
"""

from __future__ import annotations

import os
import re
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import protocol

SEGMENT = re.compile(r"[a-j][0-9][a-j][0-9]")
out_lock = threading.Lock()


def say(*lines: str) -> None:
    with out_lock:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()


def chosen(game: protocol.Game) -> str:
    moves = [str(m) for m in game.legal_moves()]
    return next((m for m in moves if SEGMENT.search(m)), moves[0] if moves else "(none)")


def main() -> None:
    variant = protocol.GAME_NAMES[0]
    game = protocol.new_game(variant)
    skill = "20"
    pending: list[str] = []

    def answer(move: str) -> None:
        with out_lock:
            if pending and pending[-1] == move:
                pending.clear()
                sys.stdout.write(f"bestmove {move}\n")
                sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name level-echo", "option name UCI_Variant type combo default " + variant
                + "".join(f" var {name}" for name in protocol.GAME_NAMES),
                "option name Skill Level type spin default 20 min 0 max 20", "uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[:2] == ["setoption", "name"] and "value" in words:
            name = " ".join(words[2:words.index("value")])
            value = words[words.index("value") + 1]
            if name == "UCI_Variant":
                variant = value
            elif name == "Skill Level":
                skill = value
        elif words[0] == "position" and words[1:2] == ["startpos"]:
            game = protocol.new_game(variant)
            for move in words[3:]:
                game.play(move)
        elif words[0] == "position" and words[1:2] == ["fen"]:
            head, _, moves = raw.split(None, 2)[2].partition(" moves ")
            game = protocol.game_from_position(head.strip())
            for move in moves.split():
                game.play(move)
        elif words[0] == "go":
            move = chosen(game)
            say(f"info string skill {skill} go {' '.join(words[1:])}", f"info depth 1 time 0 pv {move}")
            pending[:] = [move]
            if "movetime" in words:
                ms = int(words[words.index("movetime") + 1])
                threading.Timer(ms / 1000, answer, (move,)).start()
        elif words[0] == "stop":
            if pending:
                answer(pending[-1])
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
