"""isaac-referee: matches and tournaments between engine executables, every move validated.

Layers, each usable on its own: timecontrol/engine_process/client/player/game_runner/record
(one game between two untrusted processes), cpu/cgroup/watchdog (an engine gets the CPU only on
its turn, on its game's cores, and never outlives the referee), schedule/openings/runplan (which
games), pool/runner/tracker/store/checkpoint (playing them concurrently, durably, resumably, in
memory that does not grow with the run), tally/stats/ratings/pgn/report/progress/live (what they
mean and how they look), cluster (the same on Dask), cli (the command line).
"""
