"""Authors and their tokens: a token is shown once and only its SHA-256 is kept.

Tokens are 256 random bits, so a plain hash is enough (nothing to guess from it; a slow password
hash would only slow every request). A token is found by its hash through the table's unique
index: the lookup takes the same path whatever the token, and a wrong one matches nothing.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .schema import NAME_CHARS, authors

TOKEN_PREFIX = "ia_"
NAME_RE = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.-]{{0,{NAME_CHARS - 1}}}")
"""Author and bot names: letters, digits, '_', '.', '-', starting with a letter or digit."""
ADMIN = "admin"


class AuthorError(Exception):
    """A name that cannot be used, or an author that does not exist."""


@dataclass(frozen=True)
class Author:
    id: int
    name: str
    is_admin: bool


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def check_name(name: str, what: str = "name") -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        shown = repr(name)[:60]
        raise AuthorError(f"{what} {shown} is not allowed: 1 to {NAME_CHARS} letters, digits, '_', '.' or '-', "
                          f"starting with a letter or digit")
    return name


def add_author(engine: Engine, name: str, *, is_admin: bool = False) -> tuple[Author, str]:
    """A new author and their token (the only time it is seen)."""
    check_name(name, "author name")
    token = new_token()
    try:
        with engine.begin() as db:
            author_id = db.execute(insert(authors).values(
                name=name, token_hash=token_hash(token), is_admin=is_admin, created_at=time.time())
            ).inserted_primary_key[0]   # type: ignore[index]
    except IntegrityError:
        raise AuthorError(f"there is already an author called {name!r}") from None
    return Author(int(author_id), name, is_admin), token


def new_token_for(engine: Engine, name: str) -> str:
    """Replace an author's token (the old one stops working at once); the new token."""
    token = new_token()
    with engine.begin() as db:
        done = db.execute(update(authors).where(authors.c.name == name).values(token_hash=token_hash(token)))
    if done.rowcount != 1:
        raise AuthorError(f"no author called {name!r}")
    return token


def author_by_token(engine: Engine, token: str) -> Author | None:
    if not token or len(token) > 200:
        return None
    with engine.connect() as db:
        row = db.execute(select(authors.c.id, authors.c.name, authors.c.is_admin)
                         .where(authors.c.token_hash == token_hash(token))).first()
    return None if row is None else Author(int(row.id), str(row.name), bool(row.is_admin))


def author_by_name(engine: Engine, name: str) -> Author | None:
    with engine.connect() as db:
        row = db.execute(select(authors.c.id, authors.c.name, authors.c.is_admin)
                         .where(authors.c.name == name)).first()
    return None if row is None else Author(int(row.id), str(row.name), bool(row.is_admin))


def list_authors(engine: Engine) -> list[Author]:
    with engine.connect() as db:
        rows = db.execute(select(authors.c.id, authors.c.name, authors.c.is_admin).order_by(authors.c.id)).all()
    return [Author(int(r.id), str(r.name), bool(r.is_admin)) for r in rows]
