"""On `go`, tries to allocate 2 GB (for the memory-limit test)."""
from good_random import RandomEngine


class MemoryHog(RandomEngine):
    name = "memory_hog"

    def cmd_go(self, line, rest):
        self.hoard = bytearray(2 * 1024 ** 3)
        super().cmd_go(line, rest)


if __name__ == "__main__":
    MemoryHog().run()
