"""ISAAC property tests: random games against a plain re-reading of rulings 1-4.

Each example plays one seeded random game to its end. At every ply the move
list must equal a slow reference built only from the public position (pieces,
hands, scores) and the rule text, and every generated move must survive
check_move, parse_move(str(move)) and push/pop; random other moves must be
refused with an IllegalMoveError.
"""

import random

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from protocol.board import DARK, LENGTHS, LIGHT, SEGMENTS, SET_COUNTS
from protocol.errors import IllegalMoveError
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import PASS, Place, Remove

MAX_PLIES = 200  # 30 placements, 30 removals and 4 passes at most, with room to spare
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
"""A seed does not get simpler by shrinking; a failure reports its seed at once."""


def counter_cell(color, score):
    """Dark's counter on cell s; Light's frame is turned 180 degrees."""
    if score >= 100:
        return None
    return score if color == DARK else 99 - score


def line_cells(piece):
    """The whole row (horizontal) or column (vertical) the piece lies on."""
    if piece.horizontal:
        rank = piece.lo // 10
        return {rank * 10 + f for f in range(10)}
    file = piece.lo % 10
    return {r * 10 + file for r in range(10)}


def longest_removed(game, color):
    """Longest length in (set - hand - board): the pieces this colour has removed."""
    on_board = [p.length for p in game.pieces(color)]
    gone = [n for n in LENGTHS if SET_COUNTS[n] - game.hand(color)[n] - on_board.count(n) > 0]
    return max(gone, default=0)


def reference_placements(game):
    taken = {c for color in (DARK, LIGHT) for p in game.pieces(color) for c in p.cells}
    hand = game.hand(game.turn)
    return {Place(s) for s in SEGMENTS if hand[s.length] and not taken & set(s.cells)}


def reference_removals(game):
    me = game.turn
    s, u = game.scores[me], game.scores[1 - me]
    counters = {c for c in (counter_cell(DARK, game.scores[DARK]),
                            counter_cell(LIGHT, game.scores[LIGHT])) if c is not None}
    opponent_cell = counter_cell(1 - me, u)
    everyone = game.pieces(DARK) + game.pieces(LIGHT)
    moves = set()
    for piece in game.pieces(me):
        if piece.length < longest_removed(game, me) or counters & set(piece.cells):
            continue
        line = line_cells(piece)
        others = sum(1 for q in everyone if q is not piece and line & set(q.cells))
        earned = others * piece.value * 2 ** len(counters & line)
        for t in range(s, s + earned + 1):
            if t <= 99 and counter_cell(me, t) != opponent_cell:
                moves.add(Remove(piece, t))
        if s + earned >= 100:
            moves.add(Remove(piece, s + earned))
    return moves


def reference_moves(game):
    if game.is_over():
        return set()
    moves = reference_placements(game) if game.phase == "place" else reference_removals(game)
    return moves or {PASS}


def random_other_move(game, rng):
    """A move of the right shape that may or may not be legal here."""
    piece = rng.choice(SEGMENTS)
    if rng.random() < 0.5:
        return Place(piece)
    return Remove(piece, rng.randrange(0, 130))


def check_ply(game, rng):
    """Every property of one position; returns the legal moves."""
    text = game.position()
    assert IsaacGame.from_position(text).position() == text
    assert game.copy().position() == text
    legal = list(game.legal_moves())
    assert len(set(legal)) == len(legal)
    assert set(legal) == reference_moves(game)
    assert game.count_legal_moves() == len(legal)
    for move in rng.sample(legal, min(len(legal), 12)):
        assert game.check_move(move) == move
        assert game.parse_move(str(move)) == move
        game.push(move)
        game.pop()
        assert game.position() == text
    legal_set = set(legal)
    for _ in range(12):
        move = random_other_move(game, rng)
        if move in legal_set:
            assert game.check_move(move) == move
            continue
        try:
            game.check_move(move)
        except IllegalMoveError as e:
            assert e.reason and e.move == str(move)
        else:
            raise AssertionError(f"{move} accepted in {text}")
    return legal_set


def play_out(game, rng, greedy=0.0):
    """Play random moves (the highest new score with probability `greedy`) to the end,
    checking every ply; then undo them all. Returns the finished game's result."""
    start = game.position()
    plies = 0
    while not game.is_over():
        assert plies < MAX_PLIES, f"not over after {MAX_PLIES} plies: {game.position()}"
        legal = check_ply(game, rng)
        if game.phase == "score" and len(legal) < 60:
            assert game.perft(2) == sum(_after(game, m).count_legal_moves() for m in legal)
        move = game.random_move(rng)
        assert move in legal
        if rng.random() < greedy:
            move = max(legal, key=lambda m: getattr(m, "score", -1))
        phase, passes = game.phase, game.passes
        game.push(move)
        plies += 1
        if phase == "place" and game.phase == "score":
            assert move is PASS and len(passes) == 1
            assert game.turn == passes[0] and game.passes == () and game.scores == (0, 0)
    result = game.result()
    assert result is not None and result.scores == game.scores
    assert result.winner in (DARK, LIGHT)
    if max(game.scores) >= 100:
        assert result.reason.endswith("reached 100")
    else:
        assert len(game.passes) == 2
    assert list(game.legal_moves()) == [] and game.count_legal_moves() == 0
    assert game.random_move(rng) is None
    assert IsaacGame.from_position(game.position()).result() == result
    for _ in range(plies):
        game.pop()
    assert game.position() == start
    return result


@settings(max_examples=25, deadline=None, phases=NO_SHRINK)
@given(st.integers(0, 2**32 - 1))
def test_random_games_from_the_start(seed):
    play_out(IsaacGame.start(), random.Random(seed))


def rescored_position(rng):
    """A random scoring position with its scores rewritten: either both high (70..99),
    so that reaching 100 comes up often, or summing to 80..98, so that the opponent's
    counter often lies in the mover's range of new scores."""
    game = IsaacGame.start()
    while game.phase == "place" or not all(longest_removed(game, c) for c in (DARK, LIGHT)):
        if game.is_over():
            return None
        game.push(game.random_move(rng))
    if rng.random() < 0.5:
        dark, light = rng.randrange(70, 100), rng.randrange(70, 100)
        if dark + light == 99:
            light += 1
    else:
        dark = rng.randrange(10, 80)
        light = rng.randrange(80, 99) - dark
    fields = game.position().split()
    fields[-1] = f"{dark}/{light}"
    return IsaacGame.from_position(" ".join(fields))


@settings(max_examples=25, deadline=None, phases=NO_SHRINK)
@given(st.integers(0, 2**32 - 1))
def test_random_games_from_rescored_positions(seed):
    rng = random.Random(seed)
    game = rescored_position(rng)
    if game is not None:
        play_out(game, rng, greedy=0.7)


def _after(game, move):
    g = game.copy()
    g.push(move)
    return g
