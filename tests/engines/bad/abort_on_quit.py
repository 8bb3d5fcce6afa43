"""The good random player, which dies of SIGABRT on `quit` (as a Python bot whose reader thread still
holds stdin does at interpreter shutdown)."""
import os
import sys

from good_random import RandomEngine


class AbortOnQuit(RandomEngine):
    name = "abort_on_quit"

    def cmd_quit(self, line, rest):
        sys.stderr.write("Fatal Python error: _enter_buffered_busy: could not acquire lock for "
                         "<_io.BufferedReader name='<stdin>'> at interpreter shutdown, possibly due to daemon threads\n")
        sys.stderr.flush()
        os.abort()


if __name__ == "__main__":
    AbortOnQuit().run()
