"""Plays timed moves correctly, but a `go infinite` never ends: `stop` is ignored."""
from good_random import RandomEngine


class IgnoresStop(RandomEngine):
    name = "ignores_stop"

    def cmd_stop(self, line, rest):
        pass


if __name__ == "__main__":
    IgnoresStop().run()
