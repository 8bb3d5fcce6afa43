"""Prints binary junk and a few non-protocol lines, then a bestmove that is not notation."""
import sys

from good_random import RandomEngine


class Garbage(RandomEngine):
    name = "garbage"

    def cmd_go(self, line, rest):
        sys.stdout.buffer.write(b"\x00\xff\xfe junk \x1b[31m\n")
        sys.stdout.write("hello referee\ninfo depth banana\n")
        sys.stdout.write("bestmove @@zz!!\n")
        sys.stdout.flush()


if __name__ == "__main__":
    Garbage().run()
