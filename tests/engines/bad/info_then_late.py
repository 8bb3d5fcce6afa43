"""Prints argv[2] `info` lines at once (default 5; the last one 400 characters long), then sleeps
argv[1] seconds (default 0.3), ignoring its clock and `stop`, and only then prints `bestmove`:
a search that reported and then blocked past its deadline."""
import sys
import time

from good_random import RandomEngine

from protocol.messages import format_bestmove

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
LINES = int(sys.argv[2]) if len(sys.argv) > 2 else 5


class InfoThenLate(RandomEngine):
    name = "info_then_late"

    def answer(self, move) -> None:
        for depth in range(1, LINES + 1):
            tail = " string " + "x" * 400 if depth == LINES else ""
            self.say(f"info depth {depth} nodes {100 * depth} time {depth}{tail}")
        time.sleep(DELAY)
        self.say(format_bestmove(move))


if __name__ == "__main__":
    InfoThenLate().run()
