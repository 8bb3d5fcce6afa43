"""The GUI's pictures in docs/: each game at desktop and phone size, in the middle of a move, and
the analysis board (gui.png, the one README.md shows, is HARI on a desktop).

    PYTHONPATH=. python -m tests.gui.screenshots [--out docs]

Each scene is a game played to an interesting point with the rules (protocol/), handed to the page
as a game to resume (what a reload does), then a move is begun by clicking as a person would: a
HARI slide drawn where the piece went, an ISAAC removal struck out with the counter's cells
offered, FOUNDATIONS' levels; the analysis board shows a HARI game with three lines of the search.
The server runs the reference engine's strategies.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from protocol import new_game
from protocol.game import Game
from tests.gui.page import Page
from tests.support.browser import console_errors, start_chromium
from tests.support.gui_server import GuiServer

DESKTOP = (1280, 800)
PHONE = (390, 844)
"""A phone's screen: what it shows without scrolling."""
SEGMENT = re.compile(r"^[a-j][0-9][a-j][0-9](\^\d)?$")


def _hari_moves() -> list[str]:
    """Eleven plies of placements (no discards, no slides yet), then it is Light's (the engine's) turn."""
    game, rng, moves = new_game("hari"), random.Random(11), []
    while len(moves) < 11:
        places = [m for m in game.legal_moves() if SEGMENT.match(str(m))]
        shortest = min(m.length for m in places)  # type: ignore[attr-defined]
        move = rng.choice([m for m in places if m.length <= shortest + (len(moves) % 3 == 2)])  # type: ignore[attr-defined]
        game.push(move)
        moves.append(str(move))
    return moves


def _isaac_moves() -> list[str]:
    """Random placements (long pieces first) to the scoring phase, then a few removals; Dark to move."""
    game, rng, moves = new_game("isaac"), random.Random(5), []
    while not (game.state().phase == "score" and len(moves) > 4 and game.state().turn == 0
               and game.state().scores[0] > 0 and max(t for _, t in game.removal_options()) > 8):
        legal = list(game.legal_moves())
        if game.state().phase == "place":
            longest = max(len(str(m)) for m in legal)
            legal = [m for m in legal if len(str(m)) == longest] or legal
        move = rng.choice(legal)
        game.push(move)
        moves.append(str(move))
        if game.is_over():
            game, moves = new_game("isaac"), []
    return moves


def _foundations_moves() -> list[str]:
    """Placements, short pieces first and higher levels when allowed, until pieces stand on level 3."""
    game, rng, moves = new_game("foundations"), random.Random(2), []
    while True:
        legal = [str(m) for m in game.legal_moves()]
        if game.is_over():
            game, moves = new_game("foundations"), []
            continue
        if "^3" in game.position() and game.state().turn == 0 and len(legal) > 1:
            return moves
        high = max((int(m.split("^")[1]) if "^" in m else 1) for m in legal)
        pool = [m for m in legal if (int(m.split("^")[1]) if "^" in m else 1) == high]
        move = rng.choice(pool)
        game.play(move)
        moves.append(move)


def _resume(page: Page, game: str, moves: list[str], light: str = "search") -> None:
    """Hand the page a game to resume (as after a reload) and wait until it stands."""
    saved = {"start": new_game(game).position(), "moves": moves, "sides": ["human", light],
             "tc": "5+3", "level": 5, "clocks": [281_300, 268_900], "started": True}
    url = page.driver.current_url.split("#")[0]
    page.driver.get(url + "favicon.ico")   # left first: leaving saves the page's own game
    page.js("sessionStorage.setItem('isaac-gui.game', arguments[0]);", json.dumps(saved))
    page.driver.get(url)
    page.wait_connected()
    page.wait_for(lambda: int(page.data("board", "ply") or -1) >= len(moves), "the game resumed")


def hari(page: Page) -> None:
    _resume(page, "hari", _hari_moves())
    page.wait_for(page.my_turn, "the engine's reply", timeout=30)
    slides = [o for o in page.options() if ">" in o and "off" not in o]
    page.enter(slides[len(slides) // 2])


def isaac(page: Page) -> None:
    _resume(page, "isaac", _isaac_moves())
    page.wait_for(page.my_turn, "my turn")
    removals = [o for o in page.options() if o.startswith("x")]
    game = _played("isaac", page)
    earned = dict((f"x{piece.name}", total) for piece, total in game.removal_options())  # type: ignore[attr-defined]
    page.enter(max(removals, key=lambda o: earned.get(o, 0)))
    page.wait_for(lambda: page.data("entry", "targets"), "the counter's cells")


def foundations(page: Page, view: str) -> None:
    _resume(page, "foundations", _foundations_moves())
    page.wait_for(page.my_turn, "my turn")
    page.el(f'#level-buttons button[data-view="{view}"]').click()


def analysis(page: Page) -> None:
    """A HARI game of eleven plies on the analysis board, the search's three best lines."""
    moves = _hari_moves()
    url = page.driver.current_url.split("#")[0]
    page.driver.get(url + "favicon.ico")
    page.js("localStorage.setItem('isaac-gui.settings', JSON.stringify({analysis: {engine: 'search', lines: 3, "
            "on: true}}));")
    page.driver.get(url + "#analysis?" + urlencode({"position": new_game("hari").position(),
                                                    "moves": " ".join(moves)}))
    page.wait_connected()
    page.wait_for(lambda: page.data("a-board", "ply") == str(len(moves)), "the analysis board")
    page.wait_for(lambda: len(page.els("#a-pvs li")) == 3, "three lines", timeout=30)
    time.sleep(3)   # the search goes deeper


def _played(game: str, page: Page) -> Game:
    from protocol import game_from_position

    return game_from_position(page.attr("position", "value"))


def shoot(out: Path) -> list[Path]:
    server = GuiServer()
    driver = start_chromium(tempfile.mkdtemp(prefix="isaac-shots-"))
    written = []
    scenes: list[tuple[str, Any]] = [("hari", hari), ("isaac", isaac),
                                     ("foundations", lambda p: foundations(p, "all")), ("analysis", analysis)]
    try:
        for width, height, kind in ((*DESKTOP, "desktop"), (*PHONE, "phone")):
            for name, scene in scenes:
                if kind == "phone" and name == "foundations":
                    scene = lambda p: foundations(p, "1")   # noqa: E731  (one level shown, the rest dimmed)
                page = Page(driver, server.url, width=width, height=height, phone=kind == "phone",
                            viewport=kind == "desktop")
                scene(page)
                page.js("window.scrollTo(0, 0); document.activeElement.blur();")
                path = out / ("gui.png" if (name, kind) == ("hari", "desktop") else f"gui-{name}-{kind}.png")
                driver.save_screenshot(str(path))
                errors = console_errors(driver)
                if errors:
                    raise RuntimeError(f"console errors on the {name} {kind} page: {errors}")
                written.append(path)
    finally:
        driver.quit()
        server.stop()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs", help="directory for the PNG files (default docs)")
    args = parser.parse_args()
    for path in shoot(Path(args.out)):
        print(path)


if __name__ == "__main__":
    main()
