"""`isaac-arena submit URL TOKEN ARCHIVE`: an author sends an archive to a running arena (POST
/api/bots, the archive as the body). Nothing but the standard library, so an author needs no web
stack; the server's refusal is printed as it says it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

TIMEOUT = 120


class SubmitError(Exception):
    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def submit(url: str, token: str, archive: Path) -> dict[str, Any]:
    if not url.startswith(("http://", "https://")):
        raise SubmitError(f"{url!r} is not an http:// or https:// address", 2)
    try:
        data = archive.read_bytes()
    except OSError as exc:
        raise SubmitError(f"{archive}: cannot be read: {exc.strerror or exc}", 2) from None
    kind = "application/zip" if data[:2] == b"PK" else "application/gzip"
    request = urllib.request.Request(url.rstrip("/") + "/api/bots", data=data, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return dict(json.loads(answer.read()))
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error", "")
        except (ValueError, AttributeError):
            message = ""
        raise SubmitError(f"the arena refused it ({exc.code}): {message or exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SubmitError(f"cannot reach {url}: {reason}") from None
