"""A correct random player that tries one hostile act at its first `go` and reports what happened.

    python hostile.py net PORT      connect to 127.0.0.1:PORT
    python hostile.py read PATH     read a file outside its directory
    python hostile.py write P1,P2   write files outside /tmp (each path's outcome is reported)
    python hostile.py fork TOKEN    start a child in a session of its own (TOKEN in its command line)

The outcome goes out as `info string hostile <mode>: ...` before the first bestmove, so the game
record says whether the act worked ("blocked: <error>") or not. Needs good_random.py and a copy of
the protocol package beside it (a sandboxed engine sees only its own directory).
"""
import os
import socket
import subprocess
import sys

from good_random import RandomEngine, format_bestmove


def attempt(mode: str, arg: str) -> str:
    try:
        if mode == "net":
            with socket.create_connection(("127.0.0.1", int(arg)), timeout=2) as conn:
                conn.sendall(b"hello from an engine\n")
            return "connected"
        if mode == "read":
            with open(arg, encoding="utf-8") as fh:
                return "read " + fh.read(40).strip()
        if mode == "write":   # several paths, comma-separated: each one's outcome
            return "; ".join(f"{path} {attempt('write1', path)}" for path in arg.split(","))
        if mode == "write1":
            with open(arg, "w", encoding="utf-8") as fh:
                fh.write("written by an engine\n")
            return "wrote"
        if mode == "fork":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", arg],
                                     start_new_session=True, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return f"child {child.pid} in its own session {os.getsid(child.pid)}"
        return f"unknown mode {mode}"
    except OSError as exc:
        return f"blocked: {exc.__class__.__name__}: {exc}"


class Hostile(RandomEngine):
    name = "hostile"

    def __init__(self, mode: str, arg: str):
        super().__init__()
        self.mode, self.arg, self.tried = mode, arg, False

    def answer(self, move) -> None:
        if self.tried:
            return super().answer(move)
        self.tried = True
        self.say(f"info string hostile {self.mode}: {attempt(self.mode, self.arg)}")
        self.say(format_bestmove(move))


if __name__ == "__main__":
    Hostile(sys.argv[1], sys.argv[2]).run()
