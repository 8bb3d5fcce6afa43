"""Prints a legal `bestmove` without its newline, then exits with code 0."""
import os
import sys

from good_random import RandomEngine


class NoNewlineExit(RandomEngine):
    name = "no_newline_exit"

    def cmd_go(self, line, rest):
        sys.stdout.write(f"bestmove {self.choose(None)}")
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    NoNewlineExit().run()
