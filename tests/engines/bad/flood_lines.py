"""On `go`, prints short `info` lines without end and never a bestmove."""
import sys

from good_random import RandomEngine


class FloodLines(RandomEngine):
    name = "flood_lines"

    def cmd_go(self, line, rest):
        text = "info depth 1 nodes 1 string flooding\n" * 1000
        while True:
            sys.stdout.write(text)
            sys.stdout.flush()


if __name__ == "__main__":
    FloodLines().run()
