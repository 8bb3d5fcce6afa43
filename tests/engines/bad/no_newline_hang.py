"""Prints a legal `bestmove` without its newline, then hangs without reading its input."""
import sys
import time

from good_random import RandomEngine


class NoNewlineHang(RandomEngine):
    name = "no_newline_hang"

    def cmd_go(self, line, rest):
        sys.stdout.write(f"bestmove {self.choose(None)}")
        sys.stdout.flush()
        while True:
            time.sleep(60)


if __name__ == "__main__":
    NoNewlineHang().run()
