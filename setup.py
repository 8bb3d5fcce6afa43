"""Build of the optional C cores of the search (engine/search/_harifast.c, _foundationsfast.c).

Everything else is in pyproject.toml. The extensions are optional: where they cannot be
compiled the install goes on and the engine searches in Python (engine/search/hari_native.py
and foundations_native.py say which one runs).
"""

from setuptools import Extension, setup


def core(name: str) -> Extension:
    """One C core of engine/search, built with the board geometry they share."""
    return Extension(
        f"engine.search.{name}",
        sources=[f"engine/search/{name}.c"],
        depends=["engine/search/_bitboard.h"],
        extra_compile_args=["-O2", "-std=gnu11"],
        optional=True,
    )


setup(ext_modules=[core("_harifast"), core("_foundationsfast")])
