"""What the search knows about ISAAC: candidate moves, their order, and a static evaluation.

Everything here reads the position through the public IsaacGame API (pieces,
hand, scores, counter_cell, longest_removed, earned, removal_options) and takes
every formula from protocol.games.isaac.rules (``points``, ``tiebreak``, ``counter_cell_for``,
``highest_score_on``, WIN_SCORE); no rule is decided here: candidate moves are
built from those queries and the search plays them with ``push``; tests check
every candidate against ``check_move``.

Placement phase.  Only pieces on the board ever score, so the evaluation is
mostly the value each player has placed (plus a little per piece and for the
*potential* of its pieces: value x other pieces touching the piece's line x
counter multiplier).  These weights come from fitting game results of
self-play on positions of the placement phase: the value placed predicted the
result by far the best, while "room left for the long pieces in hand" and the
potential predicted it hardly or even the wrong way round.  The search weighs
potential more (IsaacSettings.placement_potential) and plays its placement leaves
on to the scoring phase (engine/games/isaac/search.py).
The move ordering (MCTS priors) adds what a placement does to the lines it
touches: its own value x the pieces on its line, plus the values of own pieces
lying along the lines it crosses, minus the opponent's.

Scoring phase.  A removal's new score t is a choice: the full score, or a
smaller one that puts the counter on an opponent piece (blocking it), on the
line of one of our next pieces (doubling it), or keeps it where it blocks.
Those are the only t values worth searching; the rest are dominated by one of
them.  The evaluation is the score difference plus a share of each side's
remaining potential.
"""

from __future__ import annotations

from protocol.board import LINE_MASK
from protocol.games.isaac.rules import TOP_CELL_SCORE as TOP_CELL
from protocol.games.isaac.rules import TOUCHED_LINES, WIN_SCORE, IsaacGame, counter_cell_for, points, tiebreak
from protocol.games.isaac.rules import highest_score_on as _best_score_on
from protocol.moves import PASS, Pass, Place, Remove
from protocol.state import Phase

WIN_EVAL = 10_000.0
"""Evaluation of a won game (points scale); the search adds/subtracts depth to prefer fast wins."""

TOUCHED_TUPLE = TOUCHED_LINES
"""Per segment index, the lines (rows 0..9, columns 10..19) a piece there touches."""
START_COUNTER_CELLS = (counter_cell_for(0, 0), counter_cell_for(1, 0))
"""Cell of each colour's counter at score 0 (Dark a0, Light j9), where the scoring phase starts them."""


class Snapshot:
    """The quantities the evaluation needs, computed once per position from the public API."""

    __slots__ = ("pieces", "counts", "occ", "hands", "scores", "counters", "counter_mask",
                 "minimum", "scoring", "turn", "passes")

    def __init__(self, game: IsaacGame) -> None:
        self.turn = game.turn
        self.scoring = game.phase is Phase.SCORE
        self.pieces = (game.pieces(0), game.pieces(1))
        self.hands = (game.hand(0), game.hand(1))
        counts = [0] * 20
        occ = 0
        for side in self.pieces:
            for seg in side:
                occ |= seg.mask
                for line in TOUCHED_TUPLE[seg.index]:
                    counts[line] += 1
        self.counts = counts
        self.occ = occ
        self.passes = game.passes
        if self.scoring:
            self.scores = game.scores
            self.counters = (game.counter_cell(0), game.counter_cell(1))
            self.minimum = (game.longest_removed(0), game.longest_removed(1))
        else:
            self.scores = (0, 0)
            self.counters = START_COUNTER_CELLS
            self.minimum = (0, 0)
        mask = 0
        for cell in self.counters:
            if cell is not None:
                mask |= 1 << cell
        self.counter_mask = mask


# ---------------------------------------------------------------------------
# potential: what a player's pieces on the board may still earn

BLOCKED_SHARE = 0.35
"""A piece under a counter may be freed later; count this share of its potential."""


def potential(snap: Snapshot, color: int) -> float:
    """Sum over the pieces `color` may still remove of value x others on its line x multiplier."""
    counts = snap.counts
    cmask = snap.counter_mask
    minimum = snap.minimum[color]
    total = 0.0
    for seg in snap.pieces[color]:
        if seg.length < minimum:
            continue
        earned: float = points(seg, counts[seg.line], cmask)
        if seg.mask & cmask:
            earned *= BLOCKED_SHARE
        total += earned
    return total


# ---------------------------------------------------------------------------
# scoring phase

SCORING_POTENTIAL_SHARE = 0.45
"""Share of the remaining potential a player is expected to turn into points."""


def scoring_eval(game: IsaacGame, snap: Snapshot | None = None, tempo: float = 0.0) -> float:
    """Score difference plus a share of the potential difference, for the side to move;
    plus `tempo` for moving first while both still remove (the search's IsaacSettings.scoring_tempo)."""
    snap = snap or Snapshot(game)
    me = snap.turn
    opp = 1 - me
    s_me, s_opp = snap.scores[me], snap.scores[opp]
    pot_me = 0.0 if me in snap.passes else potential(snap, me)
    pot_opp = 0.0 if opp in snap.passes else potential(snap, opp)
    # Near 100 the potential matters more: one good removal ends the game.
    est_me = s_me + SCORING_POTENTIAL_SHARE * pot_me
    est_opp = s_opp + SCORING_POTENTIAL_SHARE * pot_opp
    value = est_me - est_opp + tempo
    if not pot_me and not pot_opp:
        return float(s_me - s_opp) * 4 + (2 if s_me == s_opp and _tiebreak_favours(game, me) else 0)
    # A side that is out can only watch: the other needs only to pass its score.
    if opp in snap.passes and me not in snap.passes:
        value = (s_me + 0.7 * pot_me) - s_opp
    elif me in snap.passes and opp not in snap.passes:
        value = s_me - (s_opp + 0.7 * pot_opp)
    return value


def _tiebreak_favours(game: IsaacGame, color: int) -> bool:
    """Whether the rules' tie-break at equal scores (ruling 4) would make `color` the winner."""
    return tiebreak(game.hand(0), game.hand(1))[0] == color


def removal_candidates(game: IsaacGame, snap: Snapshot | None = None, wide: bool = True) -> list[Remove]:
    """The removals worth searching, best-first by a cheap guess.

    For each removable piece: the full score; the highest score that blocks each
    opponent piece it can reach; keeping the counter where it blocks; the
    highest score that puts the counter on the line of one of our next pieces.
    `wide=False` keeps only the full score and the best block per piece.
    """
    snap = snap or Snapshot(game)
    me = snap.turn
    opp = 1 - me
    s = snap.scores[me]
    minimum = snap.minimum[me]
    options = game.removal_options()  # the rules say which pieces may go, and for how much
    mine = [p for p, _ in options]
    if not mine:
        return []
    opp_min = snap.minimum[opp]
    opp_alive = opp not in snap.passes
    threats = [q for q in snap.pieces[opp] if q.length >= opp_min] if opp_alive else []
    my_cell = snap.counters[me]
    scored: list[tuple[float, Remove]] = []
    counts = snap.counts
    for p, top in options:
        earned = top - s
        if top >= WIN_SCORE:
            scored.append((1e9, Remove(p, top)))
            continue
        hi = min(TOP_CELL, top)
        base = float(earned)
        choices: dict[int, float] = {}
        legal = set(game.new_score_choices(p))
        # the one score in s..hi the rules refuse (the opponent's counter cell), if any
        forbidden = next((t for t in range(s, hi + 1) if t not in legal), -1)

        def offer(t: int, bonus: float) -> None:
            if t in legal:
                key = base - (hi - t) * 0.05 + bonus
                if choices.get(t, -1e18) < key:
                    choices[t] = key

        full = max(t for t in legal if t <= hi)
        offer(full, 0.0)
        # Blocks: the highest reachable score whose cell lies on an opponent piece.
        for q in threats:
            best = _best_score_on(me, q.mask & ~p.mask, s, hi, forbidden)
            if best is not None:
                offer(best, 0.6 * q.value * max(1, counts[q.line] - 1))
        if my_cell is not None and any(q.mask >> my_cell & 1 for q in threats):
            offer(s, 0.3)
        if wide:
            # Multipliers for our next removals (counter on their line, not on them).
            after_min = max(minimum, p.length)
            for r in mine:
                if r is p or r.length < after_min:
                    continue
                line_cells = LINE_MASK[r.line] & ~r.mask
                best = _best_score_on(me, line_cells, s, hi, forbidden)
                if best is not None:
                    offer(best, 0.4 * r.value * max(1, counts[r.line] - 2))
        for t, key in choices.items():
            scored.append((key, Remove(p, t)))
    scored.sort(key=lambda kv: -kv[0])
    return [m for _, m in scored]


# ---------------------------------------------------------------------------
# placement phase

W_PLACED = 3.0
"""Evaluation points per point of value on the board: pieces in hand never score."""
W_PIECES = 1.0
"""Per piece on the board: each one is a removal, and a line count for its neighbours."""
W_POT = 0.3
"""Per point of potential, for the one-ply `heuristic` partner: crossings already made count, a little."""


def placement_eval(game: IsaacGame, snap: Snapshot | None = None, w_pot: float = W_POT) -> float:
    """Value and number of pieces on the board, and their potential (x `w_pot`), for the side to move.

    The value a player has placed predicts the result far better than its room
    (see the module docstring): keeping long pieces in hand for later is a
    loss, not a plan."""
    snap = snap or Snapshot(game)
    me = snap.turn
    opp = 1 - me
    mine, theirs = snap.pieces[me], snap.pieces[opp]
    placed = sum(s.value for s in mine) - sum(s.value for s in theirs)
    value = W_PLACED * placed + W_PIECES * (len(mine) - len(theirs))
    if w_pot:
        value += w_pot * (potential(snap, me) - potential(snap, opp))
    return value


def placement_candidates(game: IsaacGame, snap: Snapshot | None = None) -> list[tuple[Place | Pass, float]]:
    """Every legal placement with its ordering guess, best first.

    The guess is what the piece adds to the lines it touches: its own value x the
    pieces already on its line, plus the value of the pieces lying along the lines
    it touches (ours count for us, the opponent's against), plus half its value."""
    snap = snap or Snapshot(game)
    me = snap.turn
    feed = [0] * 20
    for p in snap.pieces[me]:
        feed[p.line] += p.value
    for q in snap.pieces[1 - me]:
        feed[q.line] -= q.value
    counts = snap.counts
    out: list[tuple[Place | Pass, float]] = []
    for move in game.legal_moves():
        if not isinstance(move, Place):  # placement phase: a placement, or the lone pass
            return [(PASS, 0.0)]
        seg = move.segment
        lines = 0
        for line in TOUCHED_TUPLE[seg.index]:
            lines += feed[line]
        out.append((move, seg.value * counts[seg.line] + lines + 0.5 * seg.value))
    out.sort(key=lambda kv: -kv[1])
    return out


def evaluate(game: IsaacGame, tempo: float = 0.0, w_pot: float = W_POT) -> float:
    """Static evaluation in points for the side to move: the scoring evaluation (with `tempo`
    for moving first) in the scoring phase, else the placement evaluation (potential x `w_pot`)."""
    snap = Snapshot(game)
    if snap.scoring:
        return scoring_eval(game, snap, tempo)
    return placement_eval(game, snap, w_pot)
