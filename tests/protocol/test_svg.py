"""Board pictures: golden SVG files byte for byte, the GUI hooks, determinism (the command line: tests/referee/cli/test_pictures.py).

The golden files in tests/protocol/golden/ are the reviewed pictures. After a deliberate
change to the drawing, regenerate them and look at the result (docs/pictures.md):

    ISAAC_REGEN_GOLDEN=1 python -m pytest -q tests/protocol/test_svg.py
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from protocol import game_from_position, new_game
from protocol.board import DARK, LIGHT
from protocol.svg import board_parts, board_svg

GOLDEN = Path(__file__).parent / "golden"
NS = "{http://www.w3.org/2000/svg}"

ISAAC_SCORE = ("isaac c0c4,g0j0,d1d4,h1j1,h3j3,h4h6,b5b9,c5g5,a6a8,c6c9,h8j8/a0a5,b0b2,e0e4,g1g3,h2j2,i4i6,"
               "j4j7,d6g6,e8g8,d9h9 667/4467 l - score 6/7")
ISAAC_PLACE = "isaac a0a2,c3c7/e5h5 3333444455667/33333444555667 l - place 0/0"
ISAAC_OVER = ("isaac c0g0,i0i2,c3c7,e4h4,d5d8,e6i6,f8i8,a9f9/h0h2,a1c1,d1f1,e2g2,b4b8,e5i5,g9j9 33334/34567 d dl "
              "score 30/19")
FOUND_L3 = ("foundations d1d7,f1f6,e3e7,j3j8,d3f3^2,f4j4^2,d5f5^2,d3d5^3/c1c7,g2g7,a8f8,c2g2^2,c6g6^2,c7g7^2 "
            "3344445/333334444 d l")
HARI_SLIDES = ("hari c0c2,b3h3,g6g8/e0i0,i1i6,a8c8,d9f9 333444455566/33344445567 l d")
HARI_OFF = "hari -/i1i6 3333344445667/33333444455567 l -"
HARI_OVER = "hari j0j6/a2f2,c5i5 33333444455566/3333344445556 d dl"

CASES = {
    "isaac_start": ("isaac -/- 333334444555667/333334444555667 d - place 0/0", {}),
    "isaac_place_highlights": (ISAAC_PLACE, {"last_move": "a0a2", "highlights": ["d0", "e0", "f0", "c8"]}),
    "isaac_score_dark": (ISAAC_SCORE, {"last_move": "xf0f3:6"}),
    "isaac_score_light": (ISAAC_SCORE, {"last_move": "xf0f3:6", "orientation": LIGHT,
                                        "players": ("search", "greedy")}),
    "isaac_over": (ISAAC_OVER, {"last_move": "pass"}),
    "foundations_level3_dark": (FOUND_L3, {"last_move": "d3d5^3"}),
    "foundations_level3_light": (FOUND_L3, {"last_move": "d3d5^3", "orientation": LIGHT}),
    "hari_two_slides_dark": (HARI_SLIDES, {"last_move": "d8f8>a8c8,g9i9>d9f9,i1i6"}),
    "hari_two_slides_light": (HARI_SLIDES, {"last_move": "d8f8>a8c8,g9i9>d9f9,i1i6", "orientation": LIGHT}),
    "hari_off_discard": (HARI_OFF, {"last_move": "b3b7>off,x5", "arrows": [("a0", "a5")]}),
    "hari_over_small": (HARI_OVER, {"size": 240, "show_hands": False, "coordinates": False}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    position, options = CASES[name]
    svg = board_svg(position, **options)
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("ISAAC_REGEN_GOLDEN"):
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"missing {path}; regenerate with ISAAC_REGEN_GOLDEN=1"
    assert svg == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_cell_and_piece_has_its_hook() -> None:
    root = _root(board_svg(FOUND_L3))
    cells = [e.get("data-cell") for e in root.iter() if e.get("data-cell")]
    assert sorted(cells) == sorted(f"{f}{r}" for f in "abcdefghij" for r in range(10))
    pieces = {(e.get("data-color"), e.get("data-segment"), e.get("data-level"))
              for e in root.iter() if e.get("data-segment")}
    assert ("d", "d3d5", "3") in pieces and ("l", "c7g7", "2") in pieces and ("d", "d1d7", "1") in pieces
    assert len(pieces) == 14


def _cell_xy(svg: str, cell: str) -> tuple[float, float]:
    for e in _root(svg).iter(f"{NS}rect"):
        if e.get("data-cell") == cell:
            return float(e.get("x", "nan")), float(e.get("y", "nan"))
    raise AssertionError(cell)


def test_orientation_turns_the_board_half_round() -> None:
    dark = board_svg(ISAAC_SCORE)
    light = board_svg(ISAAC_SCORE, orientation=LIGHT)
    ax, ay = _cell_xy(dark, "a0")
    jx, jy = _cell_xy(dark, "j9")
    assert ax < jx and ay > jy                       # Dark: a0 bottom left
    assert _cell_xy(light, "a0") == (jx, jy)         # Light: a0 where Dark sees j9
    assert _cell_xy(light, "j9") == (ax, ay)


def test_counters_sit_on_the_score_cells() -> None:
    root = _root(board_svg(ISAAC_SCORE))
    counters = {e.get("data-counter"): e for e in root.iter() if e.get("data-counter")}
    assert set(counters) == {"d", "l"}
    texts = {k: "".join(v.itertext()) for k, v in counters.items()}
    assert texts["d"].startswith("6") and texts["l"].startswith("7")
    gx, gy = _cell_xy(board_svg(ISAAC_SCORE), "g0")   # Dark 6 -> cell 6 = g0
    circle = counters["d"].findall(f"{NS}circle")[1]
    assert (float(circle.get("cx", "0")), float(circle.get("cy", "0"))) == (gx + 20, gy + 20)
    assert "data-counter" not in board_svg(ISAAC_PLACE)


def test_last_move_marks() -> None:
    slides = board_svg(HARI_SLIDES, last_move="d8f8>a8c8,g9i9>d9f9,i1i6")
    assert slides.count("<polygon") == 2             # one arrow head per slide
    assert board_svg(HARI_SLIDES).count("<polygon") == 0
    removal = board_svg(ISAAC_SCORE, last_move="xf0f3:6")
    assert 'stroke-dasharray="6 4"' in removal and "xf0f3:6" in removal
    highlighted = board_svg(ISAAC_PLACE, highlights=["c8", 5])
    assert re.findall(r'data-highlight="(\w\d)"', highlighted) == ["f0", "c8"]


def test_same_input_same_bytes_whatever_the_source() -> None:
    game = game_from_position(FOUND_L3)
    assert board_svg(game) == board_svg(FOUND_L3) == board_svg(game.copy()) == board_svg(game.state())
    assert "".join(board_parts(game, orientation=LIGHT)) == board_svg(game, orientation=LIGHT)


def test_replayed_game_matches_position() -> None:
    game = new_game("hari")
    for move in ("c3c7", "d2d6", "c3c7>c4c8,a0a4"):
        last = game.play(move)
    assert board_svg(game, last_move=last) == board_svg(game.position(), last_move="c3c7>c4c8,a0a4")


@pytest.mark.parametrize("kwargs, message", [
    ({"highlights": ["k3"]}, "bad cell"),
    ({"highlights": [100]}, "off the board"),
    ({"orientation": 2}, "orientation"),
    ({"size": 0}, "size"),
])
def test_bad_arguments_say_what(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_svg(ISAAC_PLACE, **kwargs)


def test_size_scales_the_picture() -> None:
    root = _root(board_svg(HARI_OVER, size=300))
    assert root.get("height") == "300" and root.get("viewBox") == "0 0 652 448"
    assert abs(float(root.get("width", "0")) - 300 * 652 / 448) < 0.01


def test_dark_is_default_orientation() -> None:
    assert board_svg(ISAAC_START := CASES["isaac_start"][0]) == board_svg(ISAAC_START, orientation=DARK)
