"""The `isaac-arena` command: its parser and small commands (``main``), the server (``serve``) and
the author's upload client (``submit``)."""

from .main import main

__all__ = ["main"]
