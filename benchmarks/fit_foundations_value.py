"""Fit FOUNDATIONS' static value model (engine/games/foundations/value.py) to playout results.

    python benchmarks/fit_foundations_value.py [--games 350] [--ms 40] [--playouts 64] [--seed 1]

Positions: every position of `--games` self-play games of `search` (`--ms` a move) from the
shipped book, each followed by 0 to 4 moves of the playout policy (the tree's leaves lie a few
moves past the positions played). Target: the mean of `--playouts` leaf playouts from there
(the search's playouts alone: FoundationsSettings.leaf_mix = 0), for the side to move. Fit: logistic
regression of the target on the side to move's value_features minus the opponent's (scipy),
on three quarters of the positions; the mean squared error on the rest is printed next to one
playout's, with the weights to paste into engine/games/foundations/value.py's WEIGHTS and BIAS.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import threading
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from ab_inprocess import book_openings
from scipy.optimize import minimize

from engine.games.foundations.playout_policy import playout_move
from engine.games.foundations.search import FoundationsKnowledge
from engine.games.foundations.settings import FoundationsSettings
from engine.games.foundations.value import FEATURES, value_features
from engine.search.context import SearchContext
from engine.search.timeman import TimeManager
from engine.strategies import make_strategy
from engine.strategies.base import Limits, PlayOptions
from protocol import registry


def label_game(job: tuple[int, int, int]) -> list[tuple[list[float], float, float]]:
    """(feature differences, mean playout result, its variance) of the positions of one self-play game."""
    seed, ms, playouts = job
    settings = dataclasses.replace(FoundationsSettings(), leaf_mix=0.0)  # the playouts alone are the target
    rng = random.Random(seed)
    openings = book_openings("foundations")
    game: Any = registry.entry("foundations").game_class().start()
    for text in openings[seed % len(openings)]:
        game.push(game.parse_move(text))
    player = make_strategy("search")
    knowledge = FoundationsKnowledge(settings)
    ctx = SearchContext(TimeManager(Limits(infinite=True), threading.Event()), None, settings)
    rows = []
    while not game.is_over():
        leaf = game.copy()
        for _ in range(rng.randrange(5)):
            if leaf.is_over():
                break
            leaf.push(playout_move(leaf, rng, settings.playout_sample, settings.deviate))
        if not leaf.is_over():
            values = [knowledge.leaf_value(leaf, rng, ctx) for _ in range(playouts)]
            mean = sum(values) / playouts
            spread = sum((v - mean) ** 2 for v in values) / (playouts - 1)
            sc = leaf.scratch()
            mine, theirs = value_features(sc, sc.turn), value_features(sc, 1 - sc.turn)
            rows.append(([a - b for a, b in zip(mine, theirs, strict=True)], mean, spread))
        move = player.choose(game.copy(), Limits(movetime=ms), threading.Event(), lambda info: None, rng,
                             PlayOptions(move_overhead=0))
        game.push(game.check_move(move))
    return rows


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with soft targets (last weight: the bias)."""
    a = np.c_[x, np.ones(len(x))]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1 / (1 + np.exp(-(a @ w)))
        value = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        return float(value), a.T @ (p - y) / len(y)

    weights: np.ndarray = minimize(loss, np.zeros(a.shape[1]), jac=True, method="L-BFGS-B").x
    return weights


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=350)
    p.add_argument("--ms", type=int, default=40)
    p.add_argument("--playouts", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    jobs = [(args.seed * 100_000 + i, args.ms, args.playouts) for i in range(args.games)]
    rows = []
    with Pool(args.jobs) as pool:
        for game_rows in pool.imap_unordered(label_game, jobs):
            rows.extend(game_rows)
    x = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    spread = np.array([r[2] for r in rows])
    held = np.random.default_rng(args.seed).random(len(y)) < 0.25
    w = fit(x[~held], y[~held])
    p_held = 1 / (1 + np.exp(-(np.c_[x[held], np.ones(held.sum())] @ w)))
    print(f"{len(y)} positions; held-out mean squared error {np.mean((p_held - y[held]) ** 2):.4f} "
          f"(one playout's: {spread.mean():.4f}; variance of the target: {y[held].var():.4f})")
    for name, weight in zip(FEATURES, w, strict=False):
        print(f"  {name}: {weight:+.4f}")
    print(f"WEIGHTS = ({', '.join(f'{v:.4f}' for v in w[:-1])})\nBIAS = {w[-1]:.4f}")


if __name__ == "__main__":
    main()
