"""On `go`, burns CPU forever without answering (for the CPU-limit test)."""
from good_random import RandomEngine


class BusyOnGo(RandomEngine):
    name = "busy_on_go"

    def cmd_go(self, line, rest):
        x = 0
        while True:
            x += 1


if __name__ == "__main__":
    BusyOnGo().run()
