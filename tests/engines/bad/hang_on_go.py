"""Plays correctly until the first `go`, then hangs: stops reading and never answers again."""
import time

from good_random import RandomEngine


class HangOnGo(RandomEngine):
    name = "hang_on_go"

    def cmd_go(self, line, rest):
        while True:
            time.sleep(60)


if __name__ == "__main__":
    HangOnGo().run()
