"""Claims the game is over: answers every `go` with `bestmove (none)`."""
from good_random import RandomEngine


class NoneMove(RandomEngine):
    name = "none_move"

    def choose(self, go):
        return None


if __name__ == "__main__":
    NoneMove().run()
