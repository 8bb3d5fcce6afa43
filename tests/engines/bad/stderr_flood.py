"""Plays correctly while a thread writes to stderr without end."""
import sys
import threading

from good_random import RandomEngine


def spew():
    text = "debug: still thinking about nothing in particular\n" * 200
    while True:
        sys.stderr.write(text)
        sys.stderr.flush()


if __name__ == "__main__":
    threading.Thread(target=spew, daemon=True).start()
    RandomEngine().run()
