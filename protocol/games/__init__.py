"""The rules of each game, one subpackage a game, apart from each other.

A game's subpackage holds its ``Game`` subclass (``rules.py``) and what only that game needs
(step-by-step move entry, bitboard geometry, a scratch copy for playouts). What the games
share (cells and segments, notation, position strings, the state values, step entry) stays
in ``protocol/`` beside this package; protocol/registry.py names each game once.
"""
