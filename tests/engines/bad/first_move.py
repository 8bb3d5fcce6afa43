"""Ignores its Seed: always plays the first legal move, so every game from one opening is one game."""
from good_random import RandomEngine


class FirstMove(RandomEngine):
    name = "first_move"

    def choose(self, go):
        move = next(iter(self.game.legal_moves()), None)
        return None if move is None else str(move)


if __name__ == "__main__":
    FirstMove().run()
