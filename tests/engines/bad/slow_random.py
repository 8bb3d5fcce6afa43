"""The good random player, thinking a fixed time per move (argv[1] ms): games long enough to interrupt."""
import sys
import time

from good_random import RandomEngine


class SlowRandom(RandomEngine):
    name = "slow_random"

    def __init__(self, delay_ms: int):
        super().__init__()
        self.delay = delay_ms / 1000

    def answer(self, move) -> None:
        time.sleep(self.delay)
        super().answer(move)


if __name__ == "__main__":
    SlowRandom(int(sys.argv[1]) if len(sys.argv) > 1 else 20).run()
