"""Fit ISAAC's placement prior (engine/games/isaac/_placement_prior.h, IsaacSettings.prior_model) to long searches.

    PYTHONPATH=. python benchmarks/fit_isaac_prior.py [--positions 700] [--simulations 30000] [--seed 11]

Positions: placement-phase positions of playouts (the search's leaf policy) from the shipped book's openings,
about a third of each playout's. Target: the visit shares of the root's placements after `--simulations`
simulations of the search's C tree with flatter priors (`--prior-scale`). Fit: softmax regression of those shares on the
placements' features (cross-entropy, scipy), on three quarters of the positions; on the rest it prints the
cross-entropy and the share of the visits on each prior's best placement for the fitted prior and for the
search's guesses, with the weights to paste into IsaacSettings.prior_model. `--data FILE` keeps the searched
positions (pickle) and reads them back instead of searching again.
"""

from __future__ import annotations

import argparse
import math
import pickle
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
from engine.games.isaac import search as isaac_search
from engine.games.isaac.settings import IsaacSettings
from protocol import registry
from protocol.state import Phase

Searched = tuple[tuple[object, ...], list[tuple[int, int]]]
"""A position and its root's (segment, visits)."""


def searched(count: int, simulations: int, seed: int, prior_scale: float) -> list[Searched]:
    """`count` positions with the visits of a search of `simulations` with the guesses' priors at `prior_scale`
    (module docstring)."""
    settings = IsaacSettings()
    openings = book_openings("isaac")
    rng = random.Random(seed)
    out: list[Searched] = []
    games = 0
    while len(out) < count:
        game: Any = registry.entry("isaac").game_class().start()
        for text in openings[games % len(openings)]:
            game.push(game.parse_move(text))
        games += 1
        moves, _, _ = core.core().playout(core.position_tuple(game), settings.leaf_policy.params(), rng.getrandbits(64))
        for native in moves:
            if game.phase is not Phase.PLACE or len(out) >= count:
                break
            root = isaac_search.candidates(game, settings)
            if rng.random() < 0.35 and len(root) > 1:
                flat = [(move, math.exp(math.log(max(weight, 1e-300)) * settings.prior_scale / prior_scale))
                        for move, weight in root]
                tree = core.new_tree(game, flat, settings.mcts.numbers(), prior_scale, settings.leaf_playouts,
                                     settings.leaf_policy, settings.removal_prior_decay, rng.getrandbits(64))
                tree.run(simulations, 0, 0.0, 0.0, 0)
                out.append((core.position_tuple(game), [(code, visits) for code, _, visits, _ in tree.root()]))
            game.push(game.check_move(core.to_move(native)))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=700)
    p.add_argument("--simulations", type=int, default=30000)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--prior-scale", type=float, default=30.0,
                   help="the searches' prior_scale: flatter than the search's 3.0, so that the visits say more about "
                        "the placements' values than about the priors they started from")
    p.add_argument("--data", help="a pickle of searched positions: read if it exists, else written")
    args = p.parse_args()
    if args.data and Path(args.data).exists():
        with open(args.data, "rb") as f:
            data: list[Searched] = pickle.load(f)
    else:
        data = searched(args.positions, args.simulations, args.seed, args.prior_scale)
        if args.data:
            with open(args.data, "wb") as f:
                pickle.dump(data, f)
    settings = IsaacSettings()
    rows = []  # per position: features (moves x k), visit shares, the guesses' log-priors
    for position, visits in data:
        by_seg = dict(visits)
        feats = core.core().prior_features(position)
        total = sum(by_seg.values())
        guesses = dict(core.core().guesses(position))
        x = np.array([f for _, f in feats])
        share = np.array([by_seg.get(seg, 0) / total for seg, _ in feats])
        guess = np.array([guesses[seg] / settings.prior_scale for seg, _ in feats])
        rows.append((x, share, guess))
    order = np.random.default_rng(args.seed).permutation(len(rows))
    train = [rows[i] for i in order[: 3 * len(rows) // 4]]
    test = [rows[i] for i in order[3 * len(rows) // 4:]]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = 0.0, np.zeros_like(w)
        for x, share, _ in train:
            z = x @ w
            z -= z.max()
            q = np.exp(z) / np.exp(z).sum()
            value -= float(share @ np.log(q + 1e-12))
            grad += x.T @ (q - share)
        return value / len(train), grad / len(train)

    w = minimize(loss, np.zeros(core.PRIOR_FEATURES), jac=True, method="L-BFGS-B").x

    def report(name: str, logits: list[np.ndarray]) -> None:
        ce, top = 0.0, 0.0
        for (_, share, _), z in zip(test, logits, strict=True):
            z = z - z.max()
            q = np.exp(z) / np.exp(z).sum()
            ce -= float(share @ np.log(q + 1e-12))
            top += float(share[int(np.argmax(z))])
        print(f"{name}: cross-entropy {ce / len(test):.3f}, visit share of its best placement {top / len(test):.3f}")

    print(f"{len(rows)} positions ({len(test)} held out), {args.simulations} simulations each")
    report("the guesses (prior_scale)", [guess for _, _, guess in test])
    report("the fitted prior", [x @ w for x, _, _ in test])
    print("prior_model = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


if __name__ == "__main__":
    main()
