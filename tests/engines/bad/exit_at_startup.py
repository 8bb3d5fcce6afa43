"""Exits at start-up with code 3 after a message on stderr, before reading anything."""
import sys

sys.stderr.write("fatal: cannot load weights file nets/missing.bin\n")
sys.exit(3)
