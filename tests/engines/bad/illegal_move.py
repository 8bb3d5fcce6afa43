"""Plays a legal first move, then answers by copying the opponent's last move (which overlaps it)."""
from good_random import RandomEngine


class IllegalMove(RandomEngine):
    name = "illegal_move"

    def choose(self, go):
        if self.moves_seen:
            return self.moves_seen[-1]
        return super().choose(go)


if __name__ == "__main__":
    IllegalMove().run()
