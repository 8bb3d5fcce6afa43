"""The good random player, printing without ever flushing: on a pipe its lines stay in Python's buffer
(unless the environment sets PYTHONUNBUFFERED=1, which the referee does not pass on)."""
import builtins

from good_random import RandomEngine


class NoFlush(RandomEngine):
    name = "no_flush"

    def say(self, line: str) -> None:
        builtins.print(line)


if __name__ == "__main__":
    NoFlush().run()
