"""`python -m referee` and the `isaac-referee` console script."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    try:
        from .cli import main as _cli_main
    except ModuleNotFoundError as exc:   # a broken install: pydantic is a dependency
        if exc.name != "pydantic":
            raise
        print("isaac-referee: error: the referee needs pydantic; install it with "
              "pip install isaac-arena (pydantic is one of its dependencies)", file=sys.stderr)
        return 2
    return _cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
