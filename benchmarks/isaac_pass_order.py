"""Who passes first in ISAAC's placement phase, and whether the players fought for it well.

    python benchmarks/isaac_pass_order.py RECORDS.jsonl [...] --player search --plies 4,6,8

Why: the player who passes first in the placement phase removes first in the scoring phase (SPEC 3), and
between two equal tree searches that looked like what decides the games. This reads referee game records and
prints (1) how often the first passer won, by colour and by player; (2) for each `--plies` k, the pass-order
fight solved exactly from the position k plies before the first pass. The first passer is the first side to
move with nothing in hand that fits, so the fight is the game "the side that cannot place wins" (misere play)
over the placements alone, searched to its end with a table of positions seen; a fight past `--budget`
positions is counted as unsolved.
It says how often the first pass went to the side that could force it, and who lost a fight it could win.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.board import COLOR_NAME, DARK, LIGHT
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import Place
from protocol.state import Phase
from referee.results.store import RecordReader


class OverBudget(Exception):
    """The fight needs more positions than the budget allows."""


class PassOrderSolver:
    """Whether the side to move can force passing first (`wins`), over placements only."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.nodes = 0
        self._seen: dict[str, bool] = {}

    def wins(self, game: IsaacGame) -> bool:
        key = game.position()
        known = self._seen.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise OverBudget
        won = True  # no placement: the side to move passes first
        for move in game.legal_moves():
            if not isinstance(move, Place):
                break
            won = False
            game.push(move)
            try:
                reply_wins = self.wins(game)
            finally:
                game.pop()
            if not reply_wins:
                won = True
                break
        self._seen[key] = won
        return won


def placement_moves(record: dict[str, object]) -> tuple[IsaacGame, list[str], int]:
    """The record's start, the moves up to the first pass, and the colour that passed first."""
    game = IsaacGame.from_position(str(record["start_position"]))
    moves = [str(m) for m in record.get("opening", [])]  # type: ignore[union-attr]
    moves += [str(m["move"]) for m in record["moves"]]  # type: ignore[union-attr, index]
    start = game.copy()
    played: list[str] = []
    for move in moves:
        if game.phase is not Phase.PLACE:
            break
        if move == "pass":
            return start, played, game.turn
        game.play(move)
        played.append(move)
    raise ValueError(f"game {record.get('game_id')}: no pass in the placement phase")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--player", default="search", help="the player whose first passes are counted apart")
    parser.add_argument("--plies", default="4,6", help="solve the fight from this many plies before the first pass")
    parser.add_argument("--budget", type=int, default=200_000, help="positions a fight may search")
    args = parser.parse_args()
    plies = [int(k) for k in args.plies.split(",")]

    firsts: Counter[str] = Counter()
    fights: dict[int, Counter[str]] = {k: Counter() for k in plies}
    games = 0
    for path in args.records:
        for record in RecordReader(path):  # strict: a bad line is an error naming file, line and field
            if record.get("game_type") != "isaac" or record.get("result") not in ("1-0", "0-1"):
                continue
            games += 1
            names = {DARK: record["dark"]["name"], LIGHT: record["light"]["name"]}
            winner = DARK if record["result"] == "1-0" else LIGHT
            start, played, first = placement_moves(record)
            firsts[f"first passer won, {COLOR_NAME[first]} first"] += first == winner
            firsts[f"games, {COLOR_NAME[first]} first"] += 1
            mine = names[first] == args.player
            firsts[f"{args.player} won, {'it' if mine else 'the other'} passing first"] += names[winner] == args.player
            firsts[f"games, {'it' if mine else 'the other'} passing first"] += 1
            for k in plies:
                game = start.copy()
                for move in played[: max(0, len(played) - k)]:
                    game.play(move)
                solver = PassOrderSolver(args.budget)
                try:
                    can_force = solver.wins(game)
                except OverBudget:
                    fights[k]["unsolved"] += 1
                    continue
                due = game.turn if can_force else 1 - game.turn
                fights[k]["solved"] += 1
                fights[k]["positions searched"] += solver.nodes
                if due == first:
                    fights[k]["first pass as solved"] += 1
                else:
                    fights[k][f"fight lost by {names[due]}"] += 1
    print(f"{games} games")
    for key in sorted(firsts):
        print(f"  {key}: {firsts[key]}")
    for k, counts in fights.items():
        print(f"from {k} plies before the first pass:")
        for key in sorted(counts):
            print(f"  {key}: {counts[key]}")


if __name__ == "__main__":
    main()
