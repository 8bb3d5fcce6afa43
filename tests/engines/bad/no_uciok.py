"""Answers `uci` with its id but never says `uciok`; keeps reading its input."""
import sys

for line in sys.stdin:
    if line.strip() == "uci":
        print("id name no_uciok", flush=True)
