"""Plays correctly, but ignores bad input silently instead of answering `info string error: ...`."""
from good_random import RandomEngine


class SilentErrors(RandomEngine):
    name = "silent_errors"

    def error(self, what):
        pass


if __name__ == "__main__":
    SilentErrors().run()
