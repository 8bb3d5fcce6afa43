"""ISAAC rules: perft, the rulebooks' worked examples, phases, results and every rejection.

The rulebooks' pictures are lost, so each example is rebuilt as a position that
agrees with every fact its text states; the comments list those facts.
"""

import random
from collections import Counter

import pytest

from protocol.board import DARK, LIGHT, segment_at
from protocol.errors import GameOverError, IllegalMoveError, NotationError, PositionError
from protocol.game import Game
from protocol.games.isaac.rules import IsaacGame
from protocol.moves import PASS, HariMove, Place, Remove
from protocol.notation import parse_segment

START = "isaac -/- 333334444555667/333334444555667 d - place 0/0"


def seg(text):
    return parse_segment(text)


def cell(name):
    return (ord(name[1]) - 48) * 10 + ord(name[0]) - 97


def moves_of(game):
    return [str(m) for m in game.legal_moves()]


def removal_scores(game, piece):
    """The new scores offered for removing `piece` (ascending)."""
    return [m.score for m in game.legal_moves() if isinstance(m, Remove) and m.segment is seg(piece)]


def reject(game, text, *fragments):
    """`text` is refused with an IllegalMoveError whose reason names every fragment."""
    with pytest.raises(IllegalMoveError) as info:
        game.parse_move(text)
    for fragment in fragments:
        assert fragment in info.value.reason, info.value.reason
    return info.value


# -- counting -------------------------------------------------------------------

def test_start_position_round_trips():
    g = IsaacGame.start()
    assert g.position() == START
    assert IsaacGame.from_position(START).position() == START
    assert g.turn == DARK and g.phase == "place" and not g.is_over() and g.result() is None


def test_perft_1_and_2_from_start():
    g = IsaacGame.start()
    assert g.perft(1) == 600
    assert g.perft(2) == 305_600
    assert len(list(g.legal_moves())) == 600
    assert g.position() == START


def slow_perft(game, depth):
    """Generate every move at every ply, the leaves included."""
    if depth == 0:
        return 1
    total = 0
    for move in list(game.legal_moves()):
        game.push(move)
        total += slow_perft(game, depth - 1)
        game.pop()
    return total


@pytest.mark.parametrize("first", ["a0c0", "e2e8", "d4j4"])
def test_perft_3_subtrees_match_generation(first):
    """The counted perft(3) agrees with full generation below a few first moves."""
    g = IsaacGame.start()
    g.play(first)
    fast = g.perft(2)
    assert fast == slow_perft(g, 2)


def test_perft_3_is_sum_of_counted_subtrees():
    g = IsaacGame.start()
    divided = {str(m): n for m, n in g.perft_divide(3)}
    assert len(divided) == 600 and g.perft(3) == sum(divided.values())
    for first in ("a0c0", "e2e8", "d4j4"):  # the subtrees checked by generation above
        g.play(first)
        assert divided[first] == g.perft(2)
        g.pop()
    assert g.position() == START


def test_perft_matches_generic_in_scoring_and_lone_placement():
    for text in (EXAMPLE_2, EXAMPLE_1, ITALIAN, TRANSITION):
        g = IsaacGame.from_position(text)
        assert g.perft(2) == slow_perft(g, 2)
        assert g.perft(3) == slow_perft(g, 3)
        assert g.perft(2) == Game.perft(g, 2)
        assert g.position() == text


# -- worked examples --------------------------------------------------------------

# Example 1 (002): Light removes its value-3 piece between Light's 04 and 44, i.e.
# Dark's f9 and f5 (vertical on column f). 5 other pieces (4 light, 1 dark) cross
# column f; Dark's counter is on column f at Dark's 05 (f0, here on top of Light's
# d0f0), Light's counter at its 00 (j9). 5 x 3 x 2 = 30, Light moves 00 -> 30.
# Dark a5a9 and Light g7j7 are off the column and must not count.
EXAMPLE_1 = ("isaac f4h4,a5a9/d0f0,e1g1,f2h2,c3f3,f5f9,g7j7 "
             "333444455667/334455667 l - score 5/0")


def test_example_1_light_scores_thirty():
    g = IsaacGame.from_position(EXAMPLE_1)
    assert g.position() == EXAMPLE_1
    assert g.counter_cell(DARK) == cell("f0") and g.counter_cell(LIGHT) == cell("j9")
    assert g.earned(seg("f5f9")) == 5 * 3 * 2
    assert removal_scores(g, "f5f9") == list(range(0, 31))
    reject(g, "xf5f9:31", "score 31 out of range 0..30", "earns 30")
    g.play("xf9f5:30")
    assert g.scores == (5, 30)
    assert g.counter_cell(LIGHT) == cell("j6") == 69
    assert g.position() == ("isaac f4h4,a5a9/d0f0,e1g1,f2h2,c3f3,g7j7 "
                            "333444455667/334455667 d - score 5/30")
    g.play("xa5a9:5")  # nothing else touches column a: 0 points
    assert g.longest_removed(LIGHT) == 5
    reject(g, "xe1g1:30", "e1g1 (length 3) is shorter than your longest removed piece (5)")
    assert list(g.legal_moves()) == [PASS]  # every Light piece left is shorter than 5


def test_example_1_counter_protects_the_piece_under_it():
    g = IsaacGame.from_position(EXAMPLE_1)
    reject(g, "xd0f0:0", "covered by Dark's counter on f0")
    assert removal_scores(g, "d0f0") == []


# Example 2 (002): Dark removes its value-4 piece between Dark's 43 and 93 (d4d9).
# One piece crosses column d: Light's last piece, the 7 (value 6), lying on row 3
# (a3g3): moving Dark's counter to 36 (g3) covers it, to 38 (i3) does not. Dark's
# score 35 (f3) lets it reach both; 1 x 4 = 4 since no counter is on column d.
# Light then scores 6 x 1 (Dark's j2j5 crosses row 3) x 2 (Dark's counter on i3) = 12.
EXAMPLE_2 = "isaac j2j5,d4d9/a3g3 7/33 d - score 35/20"


def test_example_2_dark_options():
    g = IsaacGame.from_position(EXAMPLE_2)
    assert g.earned(seg("d4d9")) == 1 * 4
    assert moves_of(g) == ["xd4d9:35", "xd4d9:36", "xd4d9:37", "xd4d9:38", "xd4d9:39"]
    reject(g, "xj2j5:35", "shorter than your longest removed piece (6)")


def test_example_2_moving_to_38_lets_light_score_12():
    g = IsaacGame.from_position(EXAMPLE_2)
    g.play("xd4d9:38")
    assert g.counter_cell(DARK) == cell("i3")
    assert g.turn == LIGHT
    assert g.earned(seg("a3g3")) == 6 * 1 * 2
    assert removal_scores(g, "a3g3") == list(range(20, 33))


def test_example_2_moving_to_36_blocks_light_who_is_out():
    g = IsaacGame.from_position(EXAMPLE_2)
    g.play("xd4d9:36")
    assert list(g.legal_moves()) == [PASS]
    reject(g, "xa3g3:20", "covered by Dark's counter on g3", "you must pass")
    g.play("pass")
    assert g.passes == (LIGHT,) and g.turn == DARK
    # Dark's j2j5 is shorter than its removed 6: Dark is out too, and the game ends.
    assert list(g.legal_moves()) == [PASS]
    g.play("pass")
    assert g.is_over() and list(g.legal_moves()) == []
    res = g.result()
    assert (res.winner, res.scores) == (DARK, (36, 20))
    assert "higher score" in res.reason


def blocking_scores(position: str, removal: str, scores: range) -> list[int]:
    """The new scores of `removal` after which the opponent can only pass."""
    blocking = []
    for t in scores:
        g = IsaacGame.from_position(position)
        g.play(f"{removal}:{t}")
        if list(g.legal_moves()) == [PASS]:
            blocking.append(t)
    return blocking


def test_example_2_which_new_scores_block_light():
    assert blocking_scores(EXAMPLE_2, "xd4d9", range(35, 40)) == [35, 36]  # f3 and g3 lie on a3g3; 37..39 do not


# Example 3 (002): as Example 2 but Dark's counter is on column d (33 = d3, on
# Light's a3g3): 1 x 4 x 2 = 8. At 41 (b4) Light removes its last piece for
# 6 x 1 x 1 = 6; staying on row 3 inside a3g3 (33..36) blocks it instead.
EXAMPLE_3 = "isaac j2j5,d4d9/a3g3 7/33 d - score 33/20"


def test_example_3_counter_on_the_line_doubles():
    g = IsaacGame.from_position(EXAMPLE_3)
    assert g.earned(seg("d4d9")) == 1 * 4 * 2
    assert removal_scores(g, "d4d9") == list(range(33, 42))
    g.play("xd4d9:41")
    assert g.counter_cell(DARK) == cell("b4")
    assert g.earned(seg("a3g3")) == 6 * 1 * 1
    assert removal_scores(g, "a3g3") == list(range(20, 27))


def test_example_3_sacrifice_blocks_light():
    assert blocking_scores(EXAMPLE_3, "xd4d9", range(33, 42)) == [33, 34, 35, 36]


# Italian summary (003): Light ("il bianco") removes its length-5 piece lying
# horizontally on its row "10" = Dark's rank 8 (c8g8); 4 other pieces cross that
# row and no counter is on it: 3 x 4 x 1 = 12.
ITALIAN = "isaac a6a8,h7h9/i5i8,b7b9,c8g8 334444555667/33344455667 l - score 12/7"


def test_italian_example_scores_twelve():
    g = IsaacGame.from_position(ITALIAN)
    assert g.position() == ITALIAN
    shuffled = ITALIAN.replace("i5i8,b7b9,c8g8", "g8c8,i8i5,b7b9")
    assert IsaacGame.from_position(shuffled).position() == ITALIAN
    assert g.counter_cell(DARK) == cell("c1") and g.counter_cell(LIGHT) == cell("c9")
    assert g.earned(seg("c8g8")) == 3 * 4 * 1
    assert removal_scores(g, "c8g8") == list(range(7, 20))


# -- phases -------------------------------------------------------------------------

# Dark has passed (its 4, 4, 5, 6 fit nowhere); Light's only fit is its 3 on h9j9.
TRANSITION = ("isaac a0c0,d0f0,g0j0,a1c1,d1f1,a2c2,a5e5,f5j5,d6j6,a7d7,e7j7/"
              "g1j1,d2f2,g2j2,a3c3,d3f3,g3j3,a4e4,f4j4,a6c6,a8d8,e8j8,a9g9 "
              "4456/356 l d place 0/0")


def test_lone_player_places_until_it_passes_then_scoring_starts_with_first_passer():
    g = IsaacGame.from_position(TRANSITION)
    assert g.position() == TRANSITION
    assert moves_of(g) == ["h9j9"]
    reject(g, "pass", "cannot pass while a move exists (e.g. h9j9)")
    g.play("h9j9")
    assert g.turn == LIGHT  # Dark has passed: Light moves every turn
    assert list(g.legal_moves()) == [PASS]
    g.play("pass")
    assert g.phase == "score" and g.passes == () and g.turn == DARK
    assert g.scores == (0, 0)
    assert g.counter_cell(DARK) == cell("a0") and g.counter_cell(LIGHT) == cell("j9")
    assert g.position().endswith(",h9j9 4456/56 d - score 0/0")
    assert IsaacGame.from_position(g.position()).position() == g.position()
    g.pop()
    g.pop()
    assert g.position() == TRANSITION


def test_counters_start_on_pieces_and_block_them():
    g = IsaacGame.from_position(TRANSITION)
    g.play("h9j9")
    g.play("pass")
    dark_removable = {m.segment.name for m in g.legal_moves()}
    assert "a0c0" not in dark_removable and "d0f0" in dark_removable
    reject(g, "xa0c0:0", "covered by Dark's counter on a0")
    g.play("xd0f0:0")
    assert "h9j9" not in {m.segment.name for m in g.legal_moves()}
    reject(g, "xh9j9:0", "covered by Light's counter on j9")


def test_light_passing_first_starts_scoring():
    # TRANSITION with the colours swapped: Light passed first, Dark fills h9j9 and passes.
    dark, light = TRANSITION.split()[1].split("/")
    g = IsaacGame.from_position(f"isaac {light}/{dark} 356/4456 d l place 0/0")
    g.play("h9j9")
    assert g.turn == DARK and list(g.legal_moves()) == [PASS]
    g.play("pass")
    assert g.phase == "score" and g.turn == LIGHT and g.passes == ()


def test_pass_when_nothing_fits_in_placement():
    g = IsaacGame.from_position(TRANSITION)
    g.play("h9j9")
    reject(g, "a0c0", "no piece of length 3 in hand", "you must pass")


# -- scoring rules ------------------------------------------------------------------

# Dark at 95 (f9) removes d4d9: 3 other pieces on column d, value 4 -> 12.
NEAR_100 = "isaac d4d9/b0e0,c2e2,a3g3 7/33 d - score 95/20"


def test_reaching_100_ends_the_game_at_once():
    g = IsaacGame.from_position(NEAR_100)
    assert g.earned(seg("d4d9")) == 12
    assert removal_scores(g, "d4d9") == [95, 96, 97, 98, 99, 107]
    reject(g, "xd4d9:100", "score 100 out of range 95..99 or exactly 107")
    g.play("xd4d9:107")
    assert g.is_over() and list(g.legal_moves()) == [] and g.count_legal_moves() == 0
    assert g.random_move(random.Random(1)) is None
    res = g.result()
    assert (res.winner, res.scores, res.reason) == (DARK, (107, 20), "Dark reached 100")
    assert g.counter_cell(DARK) is None
    with pytest.raises(GameOverError):
        g.parse_move("pass")
    with pytest.raises(GameOverError):
        g.play("xa3g3:20")
    assert IsaacGame.from_position(g.position()).result() == res


def test_staying_below_100_is_allowed():
    g = IsaacGame.from_position(NEAR_100)
    g.play("xd4d9:99")
    assert not g.is_over() and g.counter_cell(DARK) == cell("j9")


def test_new_score_may_not_land_on_the_opponents_counter():
    g = IsaacGame.from_position("isaac j2j5,d4d9/a3g3 7/33 d - score 35/62")
    assert g.counter_cell(LIGHT) == cell("h3")
    assert removal_scores(g, "d4d9") == [35, 36, 38, 39]
    assert g.count_legal_moves() == 4
    reject(g, "xd4d9:37", "score 37 lands on Light's counter on h3")


def test_zero_points_still_a_removal():
    g = IsaacGame.from_position(EXAMPLE_1)
    assert g.earned(seg("e1g1")) == 0  # nothing else touches row 1
    assert removal_scores(g, "e1g1") == [0]
    assert g.earned(seg("g7j7")) == 2 * 2  # a5a9 and f5f9 cross row 7


def test_light_counter_uses_the_rotated_frame():
    g = IsaacGame.from_position(EXAMPLE_2)
    assert g.counter_cell(LIGHT) == 99 - 20 == cell("j7")


# -- results --------------------------------------------------------------------------

@pytest.mark.parametrize("text, winner, reason", [
    ("isaac -/- 7/33 d dl score 40/40", DARK,
     "equal scores; Dark's unplayed line is longer (7 cells to 6)"),
    ("isaac -/- 33/34 d dl score 40/40", LIGHT,
     "equal scores; Light's unplayed line is longer (7 cells to 6)"),
    ("isaac -/- 34/7 d ld score 40/40", LIGHT,
     "equal scores and unplayed lines of 7 cells; Light's has fewer pieces (1 to 2), so it is longer"),
    ("isaac -/- 7/34 l dl score 40/40", DARK,
     "equal scores and unplayed lines of 7 cells; Dark's has fewer pieces (1 to 2), so it is longer"),
    ("isaac -/- 34/34 d dl score 40/40", DARK, "equal scores and lines; Dark wins ties"),
    ("isaac -/- -/- d dl score 0/0", DARK, "equal scores and lines; Dark wins ties"),
    ("isaac -/- -/333 d dl score 3/7", LIGHT, "Light has the higher score"),
    ("isaac -/- -/- l - score 20/100", LIGHT, "Light reached 100"),
])
def test_results_and_tiebreaks(text, winner, reason):
    g = IsaacGame.from_position(text)
    assert g.is_over()
    res = g.result()
    assert res.winner == winner and res.reason == reason
    assert res.scores == tuple(int(x) for x in text.split()[-1].split("/"))
    assert res.text in ("1-0", "0-1")


def test_both_out_ends_the_game():
    g = IsaacGame.from_position("isaac d4d9/a3g3 7/33 l d score 36/20")
    assert not g.is_over()
    assert list(g.legal_moves()) == [PASS]  # Dark's counter g3 covers a3g3
    g.play("pass")
    assert g.is_over() and g.passes == (DARK, LIGHT)
    assert g.result().winner == DARK
    g.pop()
    assert not g.is_over() and g.turn == LIGHT


@pytest.mark.parametrize("text", [START, EXAMPLE_1, "isaac a0g0/a1g1 33333444455566/33333444455566 d - place 0/0"])
def test_random_move_is_uniform(text):
    g = IsaacGame.from_position(text)
    legal = list(g.legal_moves())
    per_move = 30
    rng = random.Random(2024)
    counts = Counter(g.random_move(rng) for _ in range(per_move * len(legal)))
    assert set(counts) == set(legal)
    spread = 6 * per_move ** 0.5
    assert all(abs(k - per_move) < spread for k in counts.values())


# -- bad input --------------------------------------------------------------------------

def test_placement_rejections():
    g = IsaacGame.start()
    reject(g, "pass", "cannot pass while a move exists")
    reject(g, "xa0c0:0", "wrong phase")
    g.play("a0g0")
    reject(g, "c0c2", "c0c2 overlaps Dark's piece a0g0")
    g.play("a1g1")
    e = reject(g, "a2g2", "no piece of length 7 in hand")
    assert e.move == "a2g2"
    reject(g, "c2c0", "overlaps Dark's piece a0g0")


def test_scoring_rejections():
    g = IsaacGame.from_position(EXAMPLE_1)
    reject(g, "a0c0", "wrong phase", "placement phase is over")
    reject(g, "xa0c0:0", "no piece lies on a0c0")
    reject(g, "xf5f7:0", "no piece lies exactly on f5f7", "Light's piece f5f9")
    reject(g, "xf4h4:0", "not your piece: f4h4 is Dark's")
    reject(g, "xf5f9:40", "out of range 0..30")
    g2 = IsaacGame.from_position(EXAMPLE_2)
    reject(g2, "xd4d9:34", "score 34 out of range 35..39")
    reject(g2, "xj2j5:36", "j2j5 (length 4) is shorter than your longest removed piece (6)")


def test_moves_of_other_games_and_bad_notation():
    g = IsaacGame.start()
    with pytest.raises(IllegalMoveError, match="not an ISAAC move"):
        g.check_move(HariMove((), seg("a0c0"), 0))
    with pytest.raises(IllegalMoveError, match="no levels"):
        g.check_move(Place(seg("a0c0"), 2))
    with pytest.raises(NotationError) as info:
        g.parse_move("a0c0^2")
    assert info.value.column == 5
    with pytest.raises(NotationError):
        g.parse_move("a0b0")
    assert g.check_move(Place(seg("a0c0"))) is g.parse_move("c0a0")


FULL = "333334444555667"


@pytest.mark.parametrize("text, field, fragment", [
    (f"isaac a0c0/- {FULL}/{FULL} l - place 0/0", "a0c0", "Dark has 6 pieces of length 3"),
    ("isaac a0c0/a0a2 33334444555667/33334444555667 d - place 0/0", "a0a2", "overlaps"),
    (f"isaac -/- 33334444555667/{FULL} d - place 0/0", "3333", "Dark is missing pieces of length 3"),
    (f"isaac -/- {FULL}/{FULL} d - place 0/1", "0/1", "scores stay 0/0"),
    (f"isaac -/- {FULL}/{FULL} d dl place 0/0", "dl", "scoring phase has begun"),
    (f"isaac -/- {FULL}/{FULL} d d place 0/0", "d d", "Dark has passed and cannot be the side to move"),
    (f"isaac -/- {FULL}/{FULL} l d place 0/0", "d place", "Dark has passed but its piece of length 3 still fits"),
    (f"isaac a0c0/- 33334444555667/{FULL} d - place 0/0", "d -", "cannot be Dark's turn"),
    ("isaac -/- 7/7 d - score 100/100", "100/", "only one player can reach 100"),
    ("isaac j2j5,d4d9/a3g3 7/33 d - score 35/64", "35/", "both counters would be on f3"),
    ("isaac -/- -/- d d score 100/20", "d score", "Dark reached 100, so it cannot have passed"),
    (f"isaac a0c0/- 33334444555667/{FULL} l - score 0/0", "3333", "still fits (e.g."),
    ("isaac f4h4,a5a9/d0f0,e1g1,f2h2,c3f3,f5f9,g7j7 333444455667/334455667 l - score 5/3",
     "5/3", "Light has 3 points but has removed no piece"),
    ("isaac d4d9/a3g3 7/33 d d score 36/20", "d d", "Dark has passed and cannot be the side to move"),
    (f"hari -/- {FULL}/{FULL} d -", "hari", "not isaac"),
    (f"isaac -/- {FULL}/{FULL} d - play 0/0", "play", "phase"),
    (f"isaac a0c0^2/- 33334444555667/{FULL} l - place 0/0", "a0c0", "levels exist only in FOUNDATIONS"),
])
def test_bad_positions_name_the_column(text, field, fragment):
    with pytest.raises(PositionError) as info:
        IsaacGame.from_position(text)
    assert info.value.column == text.index(field) + 1, info.value
    assert fragment in info.value.message, info.value.message


def test_segment_helper_is_the_board_table():
    assert seg("f9f5") is segment_at(cell("f5"), cell("f9"))


def test_removal_options_and_score_choices_match_the_legal_moves():
    import random as _random

    rng = _random.Random(9)
    for _ in range(5):
        game = IsaacGame.start()
        while not game.is_over():
            if game.phase == "score" and game.count_legal_moves() > 1:
                legal = {(m.segment, m.score) for m in game.legal_moves()}
                built = {(seg, t) for seg, _ in game.removal_options() for t in game.new_score_choices(seg)}
                assert built == legal
            game.push(game.random_move(rng))


def test_random_placements_draw_what_as_many_random_moves_would():
    """Playouts draw a few placements at once: the same moves from the same rng as random_move."""
    rng = random.Random(5)
    game = IsaacGame.start()
    while game.phase.name == "PLACE":
        seed = rng.randrange(1 << 30)
        drawn = game.random_placements(random.Random(seed), 3)
        one_by_one = random.Random(seed)
        expected = [game.random_move(one_by_one) for _ in range(3)]
        if expected[0] is PASS:  # nothing fits: one pass, not three
            assert drawn == [PASS] and list(game.legal_moves()) == [PASS]
        else:
            assert drawn == expected
        game.push(drawn[0])
