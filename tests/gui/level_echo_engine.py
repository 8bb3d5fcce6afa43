"""A test engine that tells what the GUI asked of it: it declares `Skill Level` (as the reference
engine does), and on each `go` reports `info depth 1 ... pv <move> [<reply>] string skill <n> go
<the go line's limits>`, then moves: after the `movetime` it was given, or, given a clock, only when
told to `stop` (so a test can see the Stop button at work), reporting again every 100 ms with more
nodes until then. Its move is the first legal placement; in HARI the PV's second move is the first
reply that slides a piece (so a test sees slides drawn as arrows). It declares `MultiPV` too: with
N lines asked, line k (`info multipv k ...`) is the k-th legal placement, scored 20 - 10 (k - 1).
"""

from __future__ import annotations

import os
import re
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import protocol
from protocol.steps import complete_move, next_steps

SEGMENT = re.compile(r"[a-j][0-9][a-j][0-9]")
out_lock = threading.Lock()


def say(*lines: str) -> None:
    with out_lock:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()


def placements(game: protocol.Game, count: int) -> list[str]:
    """The first `count` placements offered (steps, SPEC 9.11: cheap even where HARI has many moves)."""
    if game.is_over():
        return ["(none)"]
    words = [o.word for o in next_steps(game, []).options if o.completes]
    return [w for w in words if SEGMENT.fullmatch(w)][:count] or words[:1]


def chosen(game: protocol.Game) -> str:
    return placements(game, 1)[0]


def principal_variation(game: protocol.Game, move: str) -> list[str]:
    """The move, then (HARI) the first reply that slides a piece along the board."""
    pv = [move]
    if game.state().game == "hari" and move != "(none)":
        after = game.copy()
        after.play(move)
        if not after.is_over():
            slides = [o.word for o in next_steps(after, []).options if ">" in o.word and ">off" not in o.word]
            if slides:
                then = next_steps(after, slides[:1])
                play = next(o.word for o in then.options if o.completes)
                pv.append(complete_move("hari", then.prefix, play))
    return pv


def main() -> None:
    variant = protocol.GAME_NAMES[0]
    game = protocol.new_game(variant)
    skill = "20"
    multipv = 1
    pending: list[str] = []

    def report(move: str, line: str) -> None:
        """Every 100 ms until the move is made: the same line with more nodes (a search going on)."""
        nodes = 0
        while True:
            threading.Event().wait(0.1)
            nodes += 1000
            with out_lock:
                if not (pending and pending[-1] == move):
                    return
                sys.stdout.write(f"info nodes {nodes} {line}\n")
                sys.stdout.flush()

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
                "option name Skill Level type spin default 20 min 0 max 20",
                "option name MultiPV type spin default 1 min 1 max 5", "uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[:2] == ["setoption", "name"] and "value" in words:
            name = " ".join(words[2:words.index("value")])
            value = words[words.index("value") + 1]
            if name == "UCI_Variant":
                variant = value
            elif name == "Skill Level":
                skill = value
            elif name == "MultiPV":
                multipv = int(value)
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
            line = (f"depth 1 score cp 20 pv {' '.join(principal_variation(game, move))} "
                    f"string skill {skill} go {' '.join(words[1:])}")
            say(f"info {line}")
            if multipv > 1:
                say(*(f"info multipv {k} depth 1 score cp {20 - 10 * (k - 1)} pv {m}"
                      for k, m in enumerate(placements(game, multipv), 1) if k > 1))
            pending[:] = [move]
            if "movetime" in words:
                ms = int(words[words.index("movetime") + 1])
                threading.Timer(ms / 1000, answer, (move,)).start()
            else:
                threading.Thread(target=report, args=(move, line), daemon=True).start()
        elif words[0] == "stop":
            if pending:
                answer(pending[-1])
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
