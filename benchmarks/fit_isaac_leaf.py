"""Fit ISAAC's leaf model (engine/games/isaac/_leaf_model.h, IsaacSettings.leaf_model) to playout results.

    PYTHONPATH=. python benchmarks/fit_isaac_leaf.py [--games 2000] [--playouts 64] [--seed 1]

Positions: every placement-phase position of `--games` playouts (the search's leaf policy; every other game
with placements twice as often drawn at random, for variety) from the shipped book's openings. Target: the mean
of `--playouts` leaf playouts from there, for the side to move (what a leaf's one playout estimates). Fit:
logistic regression of the target on the model's features (scipy), on three quarters of the positions; on the
rest it prints the mean squared error against the target of one playout, of the model, and of their blends
(IsaacSettings.leaf_static_mix), with the weights to paste into IsaacSettings.leaf_model.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from ab_inprocess import book_openings
from scipy.optimize import minimize

from engine.games.isaac import playout_core as core
from engine.games.isaac.settings import IsaacSettings
from protocol import registry
from protocol.state import Phase


def positions(games: int, seed: int) -> list[Any]:
    """The placement-phase positions of `games` playouts from the book's openings (module docstring)."""
    policy = IsaacSettings().leaf_policy
    varied = dataclasses.replace(policy, eps_place=min(1.0, 2 * policy.eps_place))
    openings = book_openings("isaac")
    rng = random.Random(seed)
    found = []
    for g in range(games):
        game: Any = registry.entry("isaac").game_class().start()
        for text in openings[g % len(openings)]:
            game.push(game.parse_move(text))
        params = (varied if g % 2 else policy).params()
        moves, _, _ = core.core().playout(core.position_tuple(game), params, rng.getrandbits(64))
        for native in moves:
            if game.phase is not Phase.PLACE:
                break
            found.append(core.position_tuple(game))
            game.push(game.check_move(core.to_move(native)))
    return found


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--playouts", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = random.Random(args.seed + 1)
    params = IsaacSettings().leaf_policy.params()
    found = positions(args.games, args.seed)
    x = np.array([core.core().features(pos) for pos in found])
    y = np.array([core.core().leaf(pos, params, rng.getrandbits(64), args.playouts)[0] for pos in found])
    one = np.array([core.core().leaf(pos, params, rng.getrandbits(64), 1)[0] for pos in found])
    order = np.random.default_rng(args.seed).permutation(len(y))
    train, test = order[: 3 * len(y) // 4], order[3 * len(y) // 4:]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x[train] @ w
        q = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-9
        t = y[train]
        value = -np.mean(t * np.log(q + eps) + (1 - t) * np.log(1 - q + eps))
        return float(value), x[train].T @ (q - t) / len(train)

    w = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x
    model = 1.0 / (1.0 + np.exp(-(x[test] @ w)))
    print(f"{len(y)} positions ({len(test)} held out), target: the mean of {args.playouts} playouts")
    print(f"target variance {np.var(y[test]):.4f}")
    for mix in (0.0, 0.25, 0.5, 0.75, 1.0):
        blend = mix * model + (1 - mix) * one[test]
        print(f"leaf_static_mix {mix:.2f}: mean squared error {np.mean((blend - y[test]) ** 2):.4f}")
    print("leaf_model = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


if __name__ == "__main__":
    main()
