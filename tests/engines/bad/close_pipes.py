"""On the first `go`, closes stdin and stdout but keeps running (until killed)."""
import os
import time

from good_random import RandomEngine


class ClosePipes(RandomEngine):
    name = "close_pipes"

    def cmd_go(self, line, rest):
        os.close(0)
        os.close(1)
        while True:
            time.sleep(60)


if __name__ == "__main__":
    ClosePipes().run()
