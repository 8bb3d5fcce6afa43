"""The grammar: every notation form parses to the right object, prints canonically, and
every malformed text gets an error naming its column."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.board import SEGMENTS, segment_at
from protocol.errors import NotationError, PositionError
from protocol.moves import PASS, HariMove, Place, Remove, Slide
from protocol.notation import parse_move, parse_position, parse_segment
from protocol.position import format_position


def seg(name):
    return parse_segment(name)


class TestCellsAndSegments:
    def test_cell_d4_is_dark_coordinate_43(self):
        s = seg("d4d6")
        assert s.lo == 43 and s.hi == 63 and not s.horizontal

    def test_ends_in_either_order_print_lower_first(self):
        assert seg("c7c3") is seg("c3c7")
        assert str(seg("c2a2")) == "a2c2"

    def test_horizontal_and_vertical(self):
        assert seg("a0a2").length == 3 and not seg("a0a2").horizontal
        assert seg("a0c0").horizontal and seg("a0g0").length == 7

    def test_there_are_600_segments(self):
        assert len(SEGMENTS) == 600
        assert all(segment_at(s.lo, s.hi) is s for s in SEGMENTS)

    @pytest.mark.parametrize("text,column,fragment", [
        ("k4k6", 1, "expected"),
        ("a0b1", 1, "not a piece"),
        ("a0a1", 1, "not a piece"),
        ("a0a9", 1, "not a piece"),
        ("a0a", 3, "cell"),
        ("a0 a2", 3, "cell"),
    ])
    def test_bad_segments_name_column(self, text, column, fragment):
        with pytest.raises(NotationError) as e:
            parse_segment(text)
        assert e.value.column == column
        assert fragment in e.value.message
        assert repr(text) in str(e.value)


class TestMoves:
    def test_isaac_forms(self):
        assert parse_move("isaac", "c3c7") == Place(seg("c3c7"))
        assert parse_move("isaac", "xc3c7:36") == Remove(seg("c3c7"), 36)
        assert parse_move("isaac", "pass") is PASS
        assert str(parse_move("isaac", "xc7c3:136")) == "xc3c7:136"

    def test_foundations_levels(self):
        assert parse_move("foundations", "c3c7^2") == Place(seg("c3c7"), 2)
        assert str(parse_move("foundations", "c3c7^1")) == "c3c7"
        assert str(parse_move("foundations", "c7c3^3")) == "c3c7^3"

    def test_hari_forms(self):
        m = parse_move("hari", "d4d8>d5d9,b2e2>off,a0a2")
        assert m == HariMove((Slide(seg("d4d8"), seg("d5d9")), Slide(seg("b2e2"), None)), seg("a0a2"), 0)
        assert str(m) == "d4d8>d5d9,b2e2>off,a0a2"
        assert parse_move("hari", "x4") == HariMove((), None, 4)
        assert str(parse_move("hari", "a0c0>b0d0,x5")) == "a0c0>b0d0,x5"

    @pytest.mark.parametrize("game,text,column,fragment", [
        ("isaac", "xa0a2:", 7, "new score"),
        ("isaac", "xa0a2", 6, "':'"),
        ("isaac", "a0a2^2", 5, "end of text"),
        ("isaac", "", 1, "empty"),
        ("isaac", "   ", 1, "empty"),
        ("foundations", "a0a2^", 6, "level"),
        ("foundations", "a0a2^0", 1, "levels start at 1"),
        ("hari", "a0a2>zz,b0b2", 6, "segment or 'off'"),
        ("hari", "x9", 1, "length 9"),
        ("hari", "a0a2,", 5, "end of text"),
        ("hari", "a0a2>a1a3", 1, "must end with a play"),
        ("hari", "a0a2,a0a2>off,x3", 1, "must come last"),
        ("hari", "a0a2>a1a3,x3", 1, None),
    ])
    def test_malformed_moves_name_column(self, game, text, column, fragment):
        if fragment is None:  # well-formed: legality is the game's business
            parse_move(game, text)
            return
        with pytest.raises(NotationError) as e:
            parse_move(game, text)
        assert e.value.column == column, str(e.value)
        assert fragment in e.value.message

    def test_overlong_text_rejected(self):
        with pytest.raises(NotationError, match="longer than"):
            parse_move("hari", "a0a2>" * 2000 + "x3")

    def test_non_text_rejected(self):
        with pytest.raises(NotationError):
            parse_move("isaac", None)

    @settings(max_examples=200, deadline=None)
    @given(st.text(max_size=30))
    def test_any_text_parses_or_raises_notation_error(self, text):
        for game in ("isaac", "foundations", "hari"):
            try:
                move = parse_move(game, text)
            except NotationError as e:
                assert 1 <= e.column <= len(text) + 1
            else:
                assert parse_move(game, str(move)) == move

    @settings(max_examples=200, deadline=None)
    @given(st.sampled_from(SEGMENTS), st.sampled_from(SEGMENTS), st.integers(0, 200), st.integers(1, 9))
    def test_round_trip(self, a, b, score, level):
        for game, move in [("isaac", Place(a)), ("isaac", Remove(a, score)),
                           ("foundations", Place(a, level)),
                           ("hari", HariMove((Slide(a, b), Slide(b, None)), a, 0)),
                           ("hari", HariMove((Slide(a, b),), None, a.length))]:
            assert parse_move(game, str(move)) == move


START = "333334444555667/333334444555667"


class TestPositions:
    def test_start_positions_round_trip(self):
        for text in (f"isaac -/- {START} d - place 0/0", f"foundations -/- {START} d -", f"hari -/- {START} d -"):
            assert format_position(parse_position(text)) == text

    def test_canonical_order_and_blanks(self):
        rec = parse_position("  foundations  c7c3^2,a0a2/d6d4 4333/- l d ")
        assert format_position(rec) == "foundations a0a2,c3c7^2/d4d6 3334/- l d"
        assert rec.pieces[0][0].column == 16  # c7c3^2 starts at column 16
        assert rec.pieces[1][0].column == 28

    def test_fields(self):
        rec = parse_position("isaac a0a2/j9j7 3/- l ld score 12/99")
        assert rec.turn == 1 and rec.passes == (1, 0) and rec.phase == "score" and rec.scores == (12, 99)
        assert rec.hands[0][3] == 1 and sum(rec.hands[1]) == 0

    @pytest.mark.parametrize("text,column,fragment", [
        ("chess -/- 3/3 d -", 1, "game"),
        ("isaac -/- 3/3 d -", 18, "space"),
        ("hari a0a2/- 3/93 d -", 13, "length 9"),
        ("hari a0a2/- 3/3 x -", 17, "side to move"),
        ("hari a0a2/- 3/3 d dd", 19, "only once"),
        ("hari a0a2^2/- 3/3 d -", 6, "only in FOUNDATIONS"),
        ("hari a0b2/- 3/3 d -", 6, "not a piece"),
        ("isaac -/- 3/3 d - plac 0/0", 19, "phase"),
        ("isaac -/- 3/3 d - place 0/x", 27, "number"),
        ("hari a0a2,/- 3/3 d -", 10, "'/'"),
    ])
    def test_bad_positions_name_column(self, text, column, fragment):
        with pytest.raises(PositionError) as e:
            parse_position(text)
        assert e.value.column == column, str(e.value)
        assert fragment in e.value.message
