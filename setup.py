"""Build of the optional C core of the HARI end-game search (engine/search/_harifast.c).

Everything else is in pyproject.toml. The extension is optional: where it cannot be
compiled the install goes on and the engine searches HARI's end game in Python
(engine/search/hari_native.py says which one runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.search._harifast",
            sources=["engine/search/_harifast.c"],
            extra_compile_args=["-O2", "-std=gnu11"],
            optional=True,
        )
    ]
)
