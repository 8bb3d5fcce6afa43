"""Generic search techniques, knowing no game: the driver that runs a game's searcher within the
limits of a `go` (driver.py, searcher.py), the clock (timeman.py, limits.py), MCTS (mcts.py),
alpha-beta (alphabeta.py), UCB1 (bandit.py), win chances and scores (winchance.py), and the
context a search reports through (context.py). Each game's knowledge and searcher are in
engine/games/<game>/.
"""
