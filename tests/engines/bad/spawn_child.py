"""Plays correctly, but starts a child that ignores SIGTERM, and itself ignores `quit` and SIGTERM."""
import signal
import subprocess
import sys

from good_random import RandomEngine

CHILD = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: time.sleep(60)\n"


class SpawnChild(RandomEngine):
    name = "spawn_child"

    def cmd_quit(self, line, rest):
        return None   # ignores quit


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.DEVNULL)
    SpawnChild().run()
    signal.pause()   # even at end of input it stays
