"""isaac-referee: matches and tournaments between engine executables, every move validated.

Layers, each usable on its own: timecontrol/engine_process/player/game_runner/record
(one game between two untrusted processes), schedule/openings (which games),
runner/store (playing them concurrently, durably, resumably), stats/pgn/progress
(what they mean and how they look), cli (the command line).
"""
