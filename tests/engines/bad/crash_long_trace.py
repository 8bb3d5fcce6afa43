"""Plays two legal moves, then on its third `go` dies as a Node program does on an uncaught TypeError:
the error and the bot's own file and line first, then 3 KiB of the runtime's stack frames; exit 1."""
import os
import sys

from good_random import RandomEngine

ERROR = "TypeError: Cannot read properties of undefined (reading 'cells')"
FRAMES = "".join(f"    at frame{n} (node:internal/streams/readable:{n}:28)\n" for n in range(80))


class CrashLongTrace(RandomEngine):
    name = "crash_long_trace"
    gos = 0

    def cmd_go(self, line, rest):
        self.gos += 1
        if self.gos == 3:
            sys.stderr.write(f"/bots/mine/bot.js:41\n    return board.cells[i];\n                 ^\n\n{ERROR}\n"
                             f"    at chooseMove (/bots/mine/bot.js:41:18)\n{FRAMES}\nNode.js v20.20.2\n")
            sys.stderr.flush()
            os._exit(1)
        super().cmd_go(line, rest)


if __name__ == "__main__":
    CrashLongTrace().run()
