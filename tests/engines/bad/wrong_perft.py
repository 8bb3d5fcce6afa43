"""Plays correctly, but its `go perft` forgets the last legal move."""
from good_random import RandomEngine


class WrongPerft(RandomEngine):
    name = "wrong_perft"

    def perft(self, depth):
        rows = self.game.perft_divide(depth)[:-1]
        for move, count in rows:
            self.say(f"{move}: {count}")
        self.say("")
        self.say(f"Nodes searched: {sum(c for _, c in rows)}")


if __name__ == "__main__":
    WrongPerft().run()
