"""Build of the optional C cores of the engine (engine/games/<game>/_core.c, and the `fastmc`
sparring partner's engine/games/<game>/_partner.c).

Everything else is in pyproject.toml. The extensions are optional: where they cannot be
compiled the install goes on and the engine searches in Python (each game's native.py says
which one runs).
"""

from setuptools import Extension, setup


def core(game: str, name: str = "_core") -> Extension:
    """One C extension of a game's package, built with the board geometry they share (engine/games/_bitboard.h)."""
    return Extension(
        f"engine.games.{game}.{name}",
        sources=[f"engine/games/{game}/{name}.c"],
        include_dirs=["engine/games"],
        depends=["engine/games/_bitboard.h", "engine/games/_partner.h", "engine/games/_partner_api.h",
                 "engine/games/_tree.h", "engine/games/isaac/_tree_game.h"],
        extra_compile_args=["-O2", "-std=gnu11"],
        optional=True,
    )


setup(ext_modules=[core("hari"), core("foundations"),
                   core("isaac", "_partner"), core("foundations", "_partner"), core("hari", "_partner")])
