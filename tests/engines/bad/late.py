"""Plays legal moves, each after sleeping argv[1] seconds (default 0.25), ignoring its clock."""
import sys
import time

from good_random import RandomEngine

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.25


class Late(RandomEngine):
    name = "late"

    def cmd_go(self, line, rest):
        time.sleep(DELAY)
        super().cmd_go(line, rest)


if __name__ == "__main__":
    Late().run()
