"""Plays two legal moves, then on its third `go` writes a traceback to stderr and exits with code 7."""
import os
import sys

from good_random import RandomEngine


class CrashMidGame(RandomEngine):
    name = "crash_mid_game"
    gos = 0

    def cmd_go(self, line, rest):
        self.gos += 1
        if self.gos == 3:
            sys.stderr.write("Traceback (most recent call last):\nZeroDivisionError: simulated crash\n")
            sys.stderr.flush()
            os._exit(7)
        super().cmd_go(line, rest)


if __name__ == "__main__":
    CrashMidGame().run()
