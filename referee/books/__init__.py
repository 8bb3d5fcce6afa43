"""Opening books: building balanced books and judging them again with engine executables, and the
results of the games per opening. The shipped books themselves (``<game>.txt``) are data of this
folder, read by referee/matches/openings.py."""
