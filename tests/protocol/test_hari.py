"""HARI rules (issue 2, rulings 1 and 6): move generation, notation, positions, examples, counts."""

from __future__ import annotations

import itertools
import random

import pytest

from protocol.board import DARK, LENGTHS, LIGHT, SEGMENTS, SET_COUNTS, VALUE
from protocol.errors import GameOverError, IllegalMoveError, NotationError, PositionError
from protocol.game import Game
from protocol.games.hari.rules import HariGame
from protocol.moves import PASS, HariMove, Place, Slide
from protocol.notation import parse_segment

START = "hari -/- 333334444555667/333334444555667 d -"


# -- helpers ------------------------------------------------------------------

def short_first_position(seed: int, plies: int) -> HariGame:
    """Play `plies` turns placing the shortest playable piece at random: crowded boards, big slide budgets."""
    rng = random.Random(seed)
    game = HariGame.start()
    for _ in range(plies):
        if game.is_over():
            break
        no_slides = next(game.slide_sets(), None)  # the empty slide set comes first
        if no_slides is None:
            game.push(PASS)
            continue
        plays = list(game.plays_after(no_slides))
        shortest = min(m.length for m in plays)
        placements = [m for m in plays if m.length == shortest and m.place is not None]
        game.push(rng.choice(placements or plays))
    return game


def random_positions(count: int, max_moves: int, seed: int = 7) -> list[HariGame]:
    """Mid-game positions (short-first play, then uniform random moves) with 2..`max_moves` moves."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = short_first_position(rng.randrange(10**6), rng.randrange(3, 12))
        for _ in range(rng.randrange(0, 4)):
            if game.is_over() or game.count_legal_moves() > max_moves:
                break
            game.push(game.random_move(rng))
        if 2 <= game.count_legal_moves() <= max_moves:
            found.append(game)
    return found


def move_key(move) -> tuple:
    """A move as (set of slides by name, play by name): the identity of a move."""
    if move == PASS:
        return ("pass",)
    slides = frozenset((s.start.name, s.end.name if s.end else "off") for s in move.slides)
    return slides, str(move).split(",")[-1]


# -- a deliberately naive reference: cells as (file, rank) pairs, every slide order tried --

def naive_cells(name: str) -> list[tuple[int, int]]:
    a, b = (ord(name[0]) - 97, int(name[1])), (ord(name[2]) - 97, int(name[3]))
    if a[1] == b[1]:
        return [(f, a[1]) for f in range(min(a[0], b[0]), max(a[0], b[0]) + 1)]
    return [(a[0], r) for r in range(min(a[1], b[1]), max(a[1], b[1]) + 1)]


def naive_name(cells) -> str:
    lo, hi = min(cells, key=lambda c: (c[1], c[0])), max(cells, key=lambda c: (c[1], c[0]))
    return f"{'abcdefghij'[lo[0]]}{lo[1]}{'abcdefghij'[hi[0]]}{hi[1]}"


def naive_single_slides(cells, blocked):
    """(end name or 'off') for each way one piece can slide, stepping one cell at a time."""
    horizontal = cells[0][1] == cells[-1][1]
    out = []
    for sign in (-1, 1):
        step = (sign, 0) if horizontal else (0, sign)
        current = list(cells)
        while True:
            current = [(f + step[0], r + step[1]) for f, r in current]
            on_board = [c for c in current if 0 <= c[0] < 10 and 0 <= c[1] < 10]
            if any(c in blocked for c in on_board):
                break
            if not on_board:
                out.append("off")
                break
            if len(on_board) == len(cells):
                out.append(naive_name(current))
    return out


def naive_moves(game: HariGame) -> dict:
    """Every move, found by trying every slide sequence: {move key: smallest legal slide order}."""
    me = game.turn
    pieces = {s.name: naive_cells(s.name) for s in game.pieces(me)}
    others = {c for s in game.pieces(1 - me) for c in naive_cells(s.name)}
    hand = game.hand(me)
    gone = [n for n in LENGTHS if hand[n] < SET_COUNTS[n]]
    lengths = [n for n in LENGTHS if hand[n] and (not gone or n >= gone[-1])]
    if not lengths:
        return {("pass",): ()}
    order = sorted(pieces, key=lambda name: (naive_cells(name)[0][1] * 10 + naive_cells(name)[0][0]))
    orders: dict = {}  # slide set -> (rank, smallest legal sequence)
    plays: dict = {}  # slide set -> plays allowed after it

    def extend(sequence, where, value):
        occupied = others | {c for cells in where.values() for c in cells}
        slide_set = frozenset(sequence)
        rank = tuple(order.index(start) for start, _ in sequence)
        if slide_set not in orders or rank < orders[slide_set][0]:
            orders[slide_set] = (rank, tuple(sequence))
        if slide_set not in plays:
            empty = {(f, r) for f in range(10) for r in range(10)} - occupied
            plays[slide_set] = [
                play for n in lengths if VALUE[n] >= value
                for play in [f"x{n}"] + [naive_name(run) for run in naive_runs(empty, n)]
            ]
        for start in order:
            if start not in where or any(s == start for s, _ in sequence):
                continue
            if value + VALUE[len(pieces[start])] > VALUE[lengths[-1]]:
                continue
            blocked = occupied - set(where[start])
            for end in naive_single_slides(where[start], blocked):
                moved = dict(where)
                del moved[start]
                if end != "off":
                    moved[start] = naive_cells(end)
                extend(sequence + [(start, end)], moved, value + VALUE[len(pieces[start])])

    extend([], dict(pieces), 0)
    return {(slide_set, play): orders[slide_set][1] for slide_set in plays for play in plays[slide_set]}


def naive_runs(empty, n):
    for f in range(10):
        for r in range(10):
            for run in ([(f + k, r) for k in range(n)], [(f, r + k) for k in range(n)]):
                if all(c in empty for c in run):
                    yield run


# -- counts -------------------------------------------------------------------

def test_start_position_and_perft():
    game = HariGame.start()
    assert game.position() == START
    assert HariGame.from_position(START).position() == START
    assert game.perft(1) == 605
    assert game.perft(2) == 311_625
    assert len(set(game.legal_moves())) == 605


def test_second_ply_counts_by_first_move():
    game = HariGame.start()
    divide = dict(game.perft_divide(2))
    # After a discard Light has the whole empty board: 600 placements and 5 discards.
    assert divide[HariMove((), None, 7)] == 605
    placed = HariMove((), SEGMENTS[0], 0)
    assert divide[placed] == 5 + sum(1 for s in SEGMENTS if not s.mask & SEGMENTS[0].mask)


def test_lazy_perft_matches_the_listing_perft():
    game = short_first_position(1, 1)  # Light to move; then Dark can slide its piece
    before = game.position()
    assert game.perft(2) == Game.perft(game, 2) == sum(
        child.count_legal_moves() for child in children(game))
    assert game.position() == before


def children(game: HariGame):
    for move in list(game.legal_moves()):
        child = game.copy()
        child.push(move)
        yield child


def test_count_equals_distinct_generated_moves_on_random_positions():
    for game in random_positions(25, 40_000):
        moves = list(game.legal_moves())
        assert len(moves) == len(set(moves)) == game.count_legal_moves()
        if moves != [PASS]:
            assert sum(s.plays for s in game.slide_sets()) == len(moves)


def test_every_generated_move_round_trips_and_is_canonical():
    rng = random.Random(11)
    for game in random_positions(10, 20_000, seed=11):
        moves = list(game.legal_moves())
        for move in rng.sample(moves, min(len(moves), 300)):
            text = str(move)
            assert game.parse_move(text) == move
            assert game.check_move(move) == move


def random_small_position(rng: random.Random) -> HariGame:
    """A random position that play could reach: 2-5 Dark pieces among 6-12 Light ones, Dark to move.

    Discards even out the numbers of pieces played, as the turn order requires.
    """
    occupied = 0
    boards = ([], [])
    for color, count in ((DARK, rng.randrange(2, 6)), (LIGHT, rng.randrange(6, 13))):
        pool = [n for n in LENGTHS for _ in range(SET_COUNTS[n])]
        rng.shuffle(pool)
        for n in pool[:count]:
            spots = [s for s in SEGMENTS if s.length == n and not s.mask & occupied]
            if spots:
                segment = rng.choice(spots)
                boards[color].append(segment)
                occupied |= segment.mask
    hands = [dict(SET_COUNTS), dict(SET_COUNTS)]
    for color in (DARK, LIGHT):
        for segment in boards[color]:
            hands[color][segment.length] -= 1
    behind = DARK if len(boards[DARK]) < len(boards[LIGHT]) else LIGHT
    for _ in range(abs(len(boards[LIGHT]) - len(boards[DARK]))):
        hands[behind][rng.choice([n for n in LENGTHS if hands[behind][n]])] -= 1

    def field(color):
        pieces = ",".join(s.name for s in boards[color]) or "-"
        return pieces, "".join(str(n) * hands[color][n] for n in LENGTHS) or "-"

    (dark_pieces, dark_hand), (light_pieces, light_hand) = field(DARK), field(LIGHT)
    return HariGame.from_position(f"hari {dark_pieces}/{light_pieces} {dark_hand}/{light_hand} d -")


def test_generator_matches_brute_force_over_all_slide_orders():
    rng = random.Random(2026)
    checked = reordered = 0
    while checked < 40:
        game = random_small_position(rng)
        if not 10 <= sum(1 for _ in game.slide_sets()) <= 400:
            continue
        expected = naive_moves(game)
        generated = {move_key(m): m for m in game.legal_moves()}
        assert set(generated) == set(expected), game.position()
        for key, move in generated.items():
            if move != PASS:
                assert tuple((s.start.name, s.end.name if s.end else "off") for s in move.slides) == expected[key]
                starts = [(s.start.lo, s.start.hi) for s in move.slides]
                reordered += starts != sorted(starts)
        checked += 1
    assert reordered > 0  # some sets were legal only out of (lo, hi) order


def test_brute_force_on_order_dependent_position():
    game = HariGame.from_position(ORDER_POSITION)
    expected = naive_moves(game)
    assert {move_key(m) for m in game.legal_moves()} == set(expected)


def test_slide_sets_are_distinct_and_plays_after_matches_counts():
    game = short_first_position(5, 10)
    seen = set()
    for slide_set in game.slide_sets():
        key = frozenset(slide_set.slides)
        assert key not in seen
        seen.add(key)
        plays = list(game.plays_after(slide_set))
        assert len(plays) == slide_set.plays
        assert all(p.slides == slide_set.slides for p in plays)
        assert slide_set.value == sum(s.start.value for s in slide_set.slides)
    assert len(seen) > 100


def test_large_mid_game_count_without_listing():
    game = short_first_position(4, 10)
    count = game.count_legal_moves()
    assert count == sum(s.plays for s in game.slide_sets())
    assert count > 100_000


# -- rulebook examples -----------------------------------------------------------

# Every row but 0 and 5 holds a 3-piece on d..f, row 5 is full, and Light's
# 4-piece lies on d0g0: no run of six empty cells anywhere (rows split into
# runs of at most 5, columns cut by row 5).
EXAMPLE_1 = "hari d1f1,d2f2,d3f3,d4f4,d5g5,d6f6/d0g0,a5c5,h5j5,d7f7,d8f8,d9f9 44555667/444555667 l -"


def test_example_1_light_slides_its_2_piece_to_make_room_for_its_4_piece():
    game = HariGame.from_position(EXAMPLE_1)
    without_slides = [m for m in game.legal_moves() if not m.slides and m.place is not None]
    assert not [m for m in without_slides if m.length == 6]
    move = game.parse_move("d0g0>g0j0,a0f0")
    assert move == HariMove((Slide(seg("d0g0"), seg("g0j0")),), seg("a0f0"))
    slide_set = next(s for s in game.slide_sets() if s.slides == move.slides)
    assert move in set(game.plays_after(slide_set))
    with pytest.raises(IllegalMoveError, match="overlaps a piece at d0"):
        game.parse_move("a0f0")
    game.push(move)
    assert game.position() == ("hari d1f1,d2f2,d3f3,d4f4,d5g5,d6f6/a0f0,g0j0,a5c5,h5j5,d7f7,d8f8,d9f9 "
                               "44555667/44455567 d -")


def test_after_a_3_value_piece_only_value_3_or_more_is_playable():
    # Dark plays a 5 (value 3, the book's "3-piece") first and still holds 3s and 4s.
    game = HariGame.start()
    game.play("c3c7")
    game.play("a0a2")
    assert game.hand(DARK)[3] == 5 and game.hand(DARK)[4] == 4
    assert {m.length for m in game.legal_moves()} == {5, 6, 7}
    with pytest.raises(IllegalMoveError, match=r"shorter than your last play \(5\)"):
        game.parse_move("x4")
    with pytest.raises(IllegalMoveError, match="shorter than your last play"):
        game.parse_move("a0d0")


def test_sliding_a_2_and_a_1_needs_a_played_value_of_3():
    # Dark: a 4-piece (value 2) and a 3-piece (value 1) on the board.
    game = HariGame.from_position("hari a0d0,a2c2/a9c9,j0j2 3333444555667/3334444555667 d -")
    with pytest.raises(IllegalMoveError, match="slid value sum 3 exceeds the played piece's value 2"):
        game.parse_move("a0d0>b0e0,a2c2>b2d2,a4d4")
    move = game.parse_move("a0d0>b0e0,a2c2>b2d2,a4e4")
    assert move.length == 5 and VALUE[5] == 3
    values = {sum(s.start.value for s in m.slides) for m in game.legal_moves() if m.length == 4}
    assert values == {0, 1, 2}
    assert 3 in {sum(s.start.value for s in m.slides) for m in game.legal_moves() if m.length == 5}


# Example 2 "Endgame. White wins 27 to 25": Dark 6+4+4+3+3+2+2+1 = 25 on rows 0..7,
# Light 6+4+4+3+3+3+2+2 = 27; both have played their 7, so nothing in hand is playable.
EXAMPLE_2_BOARD = ("a0g0,a1f1,a2f2,a3e3,a4e4,a5d5,a6d6,a7c7/"
                   "h0h5,i0i5,j0j4,j5j9,h6h9,i6i9,a8g8,a9e9")


def test_example_2_endgame_light_wins_27_to_25():
    game = HariGame.from_position(f"hari {EXAMPLE_2_BOARD} 3333445/3333344 l d")
    assert list(game.legal_moves()) == [PASS]
    assert game.count_legal_moves() == 1
    game.play("pass")
    assert game.is_over()
    assert game.position() == f"hari {EXAMPLE_2_BOARD} 3333445/3333344 d dl"
    result = game.result()
    assert result.winner == LIGHT
    assert result.scores == (25, 27)
    assert result.text == "0-1"
    assert list(game.legal_moves()) == [] and game.count_legal_moves() == 0
    assert game.random_move(random.Random(1)) is None
    with pytest.raises(GameOverError):
        game.parse_move("pass")


def test_equal_value_on_the_board_is_a_draw():
    game = HariGame.from_position("hari a0c0/a9c9 3333444455566/3333444455566 d dl")
    result = game.result()
    assert result.winner is None and result.scores == (1, 1) and result.text == "1/2-1/2"


# -- slides -------------------------------------------------------------------

# Dark a0c0 can move right only after d0d2 has moved up; sorted by (lo, hi) a0c0 comes first.
ORDER_POSITION = "hari a0c0,d0d2/g5i5,j7j9 3334444555667/3334444555667 d -"


def seg(name: str):
    return parse_segment(name)


def test_order_dependent_slides_are_legal_only_in_the_working_order():
    game = HariGame.from_position(ORDER_POSITION)
    move = game.parse_move("d0d2>d1d3,a0c0>b0d0,x5")
    assert str(move) == "d0d2>d1d3,a0c0>b0d0,x5"
    assert move in set(game.legal_moves())
    with pytest.raises(IllegalMoveError, match=r"slide a0c0>b0d0 is blocked at d0"):
        game.parse_move("a0c0>b0d0,d0d2>d1d3,x5")


def test_same_slide_set_in_two_legal_orders_is_one_move():
    game = HariGame.from_position(ORDER_POSITION)
    first = game.parse_move("a0c0>off,d0d2>d4d6,x5")
    second = game.parse_move("d0d2>d4d6,a0c0>off,x5")
    assert first == second
    assert str(second) == "a0c0>off,d0d2>d4d6,x5"
    assert sum(1 for m in game.legal_moves() if move_key(m) == move_key(first)) == 1


def test_slides_off_the_board():
    game = HariGame.from_position(ORDER_POSITION)
    move = game.parse_move("a0c0>off,x3")
    game.push(move)
    assert game.position() == "hari d0d2/g5i5,j7j9 334444555667/3334444555667 l -"
    game.pop()
    # d0d2 can leave upward (column d is clear above it) although a0c0 blocks nothing there.
    assert game.is_legal(game.parse_move("d0d2>off,x3"))
    blocked = HariGame.from_position("hari b5d5/a5a7,e5g5 3334444555667/3334444555667 d -")
    with pytest.raises(IllegalMoveError, match="blocked at a5 .* and e5"):
        blocked.parse_move("b5d5>off,x3")


def test_slide_rejections_name_the_broken_rule():
    game = HariGame.from_position(ORDER_POSITION)
    cases = {
        "d0d2>d0d2,x3": "distance 0",
        "a0c0>a1c1,x3": "not along the piece's length",
        "a0c0>a0a2,x3": "not along the piece's length",
        "a0c0>a0d0,x3": "length-3 piece cannot end on length-4",
        "a0c0>off,a0c0>off,x3": "no piece at a0c0",
        "d0d2>d3d5,d3d5>d4d6,x3": "already slid this turn",
        "g5i5>h5j5,x3": "g5i5 is Light's piece, not yours",
        "b5d5>c5e5,x3": "no piece at b5d5",
        "d0d2>d7d9,x3": None,
        "a0c0>e0g0,x3": "blocked at d0",
        "d0d2>off,a0c0>off,x2": None,
    }
    for text, reason in cases.items():
        if reason is None:
            continue
        with pytest.raises(IllegalMoveError, match=reason):
            game.parse_move(text)
    assert game.is_legal(game.parse_move("d0d2>d7d9,x3"))


# Dark has placed one 6 and discarded the other: it may play only its 7 now.
DARK_HOLDS_ONLY_ITS_7 = "hari a0f0/a9c9,j0j2 3333344445557/3334444555667 d -"


@pytest.mark.parametrize("text, error, match", [
    ("a5f5", IllegalMoveError, "no piece of length 6 in hand"),
    ("x3", IllegalMoveError, r"a length-3 piece is shorter than your last play \(6\)"),
    ("a9g9", IllegalMoveError, "overlaps a piece at a9"),
    ("a0g0", IllegalMoveError, "overlaps a piece at a0"),
    ("pass", IllegalMoveError, "cannot pass while a move exists"),
    ("a0c0>,x4", NotationError, None),
    ("x8", NotationError, None),
])
def test_play_rejections_name_the_broken_rule(text, error, match):
    with pytest.raises(error, match=match):
        HariGame.from_position(DARK_HOLDS_ONLY_ITS_7).parse_move(text)


def test_the_slide_that_frees_the_row_makes_the_placement_legal_and_a_place_is_not_a_hari_move():
    game = HariGame.from_position(DARK_HOLDS_ONLY_ITS_7)
    assert game.parse_move("a0f0>off,a0g0") == HariMove((Slide(seg("a0f0"), None),), seg("a0g0"))
    with pytest.raises(IllegalMoveError, match="not a HARI move"):
        game.check_move(Place(seg("e5g5")))


def test_pass_is_the_only_move_without_a_playable_piece_and_the_opponent_moves_on():
    # Dark has played its 7 and only holds shorter pieces; Light still has a 3.
    game = HariGame.from_position("hari a0g0/a9c9 33333444455566/33334444555667 d -")
    assert list(game.legal_moves()) == [PASS]
    assert not list(game.slide_sets())
    with pytest.raises(IllegalMoveError, match="must pass"):
        game.parse_move("x3")
    game.play("pass")
    assert game.turn == LIGHT and not game.is_over()
    game.play("x3")
    assert game.turn == LIGHT and game.position().endswith(" l d")
    game.pop()
    game.pop()
    assert game.position() == "hari a0g0/a9c9 33333444455566/33334444555667 d -"


def test_push_pop_restores_every_field():
    game = short_first_position(2, 9)
    before = game.position()
    rng = random.Random(4)
    played = []
    for _ in range(6):
        move = game.random_move(rng)
        if move is None:
            break
        game.push(move)
        played.append(move)
    for move in reversed(played):
        assert game.pop() == move
    assert game.position() == before


def test_search_key_is_equal_exactly_when_the_positions_are():
    games = [short_first_position(seed, plies) for seed in range(8) for plies in (4, 9, 14, 19)]
    by_key: dict[object, str] = {}
    for game in games:
        for move in itertools.islice(game.legal_moves(), 30):
            game.push(move)
            key, text = game.search_key(), game.position()
            assert hash(key) == hash(game.copy().search_key())
            assert by_key.setdefault(key, text) == text
            game.pop()
    assert len(set(by_key.values())) == len(by_key)
    # The same cells covered by different pieces are different positions (they slide differently).
    one = HariGame.from_position("hari a0c0,d0g0/a9c9 3333444555667/33334444555667 l -")
    two = HariGame.from_position("hari a0d0,e0g0/a9c9 3333444555667/33334444555667 l -")
    assert one.empty_cells() == two.empty_cells() and one.search_key() != two.search_key()
    # Transposed move orders reach one key.
    a, b = HariGame.start(), HariGame.start()
    for text in ("a0c0", "a9c9", "e0g0"):
        a.play(text)
    for text in ("e0g0", "a9c9", "a0c0"):
        b.play(text)
    assert a.search_key() == b.search_key()


def test_copy_is_independent():
    game = short_first_position(2, 6)
    clone = game.copy()
    clone.push(clone.random_move(random.Random(0)))
    assert clone.position() != game.position()
    assert HariGame.from_position(game.position()) == game


# -- positions ---------------------------------------------------------------

@pytest.mark.parametrize("text, column, message", [
    ("hari a0c0,a0a2/- 3334444555667/333334444555667 l -", 11, "overlaps"),
    ("hari a0c0,a1c1,a2c2,a3c3,a4c4,a5c5/- 4444555667/333334444555667 l -", 6, "has 6 pieces of length 3"),
    ("hari a0c0/- 3333444455566/333334444555667 d -", 43, "with Dark to move they must be equal"),
    ("hari -/- 333334444555667/333334444555667 l -", 42, "Dark must have played one more"),
    ("hari a0g0/a9c9 33333444455566/33334444555667 d d", 46, "passed and cannot be the side to move"),
    ("hari a0g0/a9c9 33333444455566/33334444555667 d l", 48, "Light has passed but can still play"),
    ("hari a0g0/a9c9 33333444455566/33334444555667 d ld", 48, "Light has passed but can still play"),
    ("hari a0g0/- 33333444455566/333334444555667 l d", 46, "Dark passed first, so Light played at least as many"),
    ("hari a0c0^2/- 3333444455566/333334444555667 l -", 6, "levels exist only in FOUNDATIONS"),
    ("foundations -/- 333334444555667/333334444555667 d -", 1, "this is a foundations position, not hari"),
])
def test_bad_positions_are_rejected_at_the_right_column(text, column, message):
    with pytest.raises(PositionError, match=message) as info:
        HariGame.from_position(text)
    assert info.value.column == column


def test_position_round_trips_and_is_canonical():
    messy = "hari  d0d2,a0c0/j7j9,g5i5 3334444555667/3334444555667 d -"
    game = HariGame.from_position(messy.replace("  ", " "))
    assert game.position() == ORDER_POSITION
    for game in random_positions(10, 10**7, seed=5):
        text = game.position()
        assert HariGame.from_position(text).position() == text


def test_minimum_play_length_is_derived_from_what_left_the_hand():
    # Dark got rid of a 6 earlier: set - hand holds a 6, so 6 is the minimum.
    game = HariGame.from_position("hari a0c0/- 3333444455567/33334444555667 l -")
    assert game.min_length(DARK) == 6
    assert game.min_length(LIGHT) == 3
    assert HariGame.start().min_length(DARK) == 0


# -- uniform random moves --------------------------------------------------------

def test_random_move_is_uniform_over_all_legal_moves():
    game = HariGame.from_position(UNIFORM_POSITION)
    moves = list(game.legal_moves())
    assert len(moves) == 56
    assert any(m.slides for m in moves)
    rng = random.Random(20260101)
    per_move = 150
    draws = per_move * len(moves)
    hits = dict.fromkeys(moves, 0)
    for _ in range(draws):
        hits[game.random_move(rng)] += 1
    chi_square = sum((h - per_move) ** 2 / per_move for h in hits.values())
    dof = len(moves) - 1
    assert min(hits.values()) > 0
    assert chi_square < dof + 6 * (2 * dof) ** 0.5


# A late short-first position: Light (to move) holds 5, 5, 6, 7 with a crowded board;
# most of its 56 moves slide something.
UNIFORM_POSITION = ("hari a0a4,b0b2,e0e3,f0f3,h2j2,e4e6,h7j7,c8f8,a9d9,e9g9/"
                    "g0g3,b3d3,h3h5,i3i6,b4d4,g4g7,c5c7,d5d7,g8j8 55667/555667 l -")


def test_uniform_position_is_valid():
    game = HariGame.from_position(UNIFORM_POSITION)
    assert game.position() == UNIFORM_POSITION



def test_slide_ends_agree_with_the_single_slide_sets():
    """slide_ends (for searches) lists exactly the one-slide sets the generator finds."""
    import random as _random

    from protocol import new_game
    from protocol.games.hari.rules import slide_ends

    rng = _random.Random(5)
    game = new_game("hari")
    checked = 0
    while not game.is_over() and checked < 12:
        game.push(game.random_move(rng))
        singles = {(s.slides[0].start, s.slides[0].end) for s in game.slide_sets() if len(s.slides) == 1}
        occupied = 0
        for color in (0, 1):
            for piece in game.pieces(color):
                occupied |= piece.mask
        mine = {(p, end) for p in game.pieces(game.turn) for end in slide_ends(p, occupied)}
        budget_ok = {(p, e) for p, e in mine if any(p.value <= n_value for n_value in
                     [VALUE[n] for n in LENGTHS if game.hand(game.turn)[n] and n >= game.min_length(game.turn)])}
        assert singles == budget_ok
        checked += 1
