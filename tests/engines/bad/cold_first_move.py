"""The good random player, but its first `go` costs 250 ms of set-up done too late (a table built on
first use, a JIT's first run): every later move is at once."""
import time

from good_random import RandomEngine


class ColdFirstMove(RandomEngine):
    name = "cold_first_move"
    warm = False

    def answer(self, move) -> None:
        if not self.warm:
            time.sleep(0.25)
            self.warm = True
        super().answer(move)


if __name__ == "__main__":
    ColdFirstMove().run()
