"""On `go`, prints one endless line (no newline) as fast as it can."""
import sys

from good_random import RandomEngine


class FloodLine(RandomEngine):
    name = "flood_line"

    def cmd_go(self, line, rest):
        chunk = "info string " + "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()


if __name__ == "__main__":
    FloodLine().run()
