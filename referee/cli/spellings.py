"""cutechess-cli and fastchess spellings, rewritten into this referee's own options before parsing.

Hosts come with command lines from chess tools. Where a spelling means exactly one thing here it
is rewritten (``-games 10`` -> ``--games 10``, ``-openings file=o.txt`` -> ``--openings o.txt``);
where it would mean something different, the host is told so instead of getting a silently
different run. docs/referee.md lists every spelling.
"""

from __future__ import annotations

from collections.abc import Sequence

GAME_COMMANDS = ("match", "tournament")

RENAMED = {"-games": "--games", "-rounds": "--rounds", "-concurrency": "--concurrency",
           "-srand": "--seed", "-tournament": "--format", "-pgnout": "--pgn-out"}
"""One value each, same meaning."""

IGNORED = {"-repeat": "games are always played in pairs, the same opening with colours swapped",
           "-recover": "a crashed engine is always replaced before its next game",
           "-ratinginterval": "the score is printed after every game"}
"""Flags without a value whose behaviour is always on here."""

REFUSED = {"-resign": "resign adjudication does not exist here: the games are short and always played out",
           "-draw": "draw adjudication does not exist here: only --max-plies adjudicates a draw",
           "-maxmoves": "use --max-plies PLIES (plies, not moves)",
           "-pgnin": "use --openings FILE (one opening per line: moves or a position string)",
           "-epdin": "use --openings FILE (one opening per line: moves or a position string)",
           "-bookmode": "use --openings FILE (one opening per line)",
           "-tb": "there are no tablebases for these games", "-tbpieces": "there are no tablebases for these games"}


class SpellingError(ValueError):
    """A foreign spelling that cannot be honoured; the message says what to write instead."""


def _take_pairs(words: list[str], i: int) -> tuple[dict[str, str], int]:
    """key=value words from position i on; (pairs, index after them)."""
    pairs: dict[str, str] = {}
    while i < len(words) and "=" in words[i] and not words[i].startswith("-"):
        key, _, value = words[i].partition("=")
        pairs[key.lower()] = value
        i += 1
    return pairs, i


def _openings(pairs: dict[str, str]) -> list[str]:
    if "file" not in pairs:
        raise SpellingError("-openings needs file=FILE")
    fmt = pairs.pop("format", "epd").lower()
    if fmt not in ("epd", "txt", "text"):
        raise SpellingError(f"-openings format={fmt}: only a text file with one opening per line "
                            f"(a move sequence or a position string) is read here; use format=epd or txt")
    order = pairs.pop("order", "sequential").lower()
    if order != "sequential":
        raise SpellingError(f"-openings order={order}: openings are used in file order here "
                            f"(shuffle the file, or use --openings random:PLIES)")
    path = pairs.pop("file")
    if pairs:
        raise SpellingError(f"-openings: {', '.join(sorted(pairs))}= not supported (file=, format=, order=sequential)")
    return ["--openings", path]


def _sprt(pairs: dict[str, str]) -> list[str]:
    try:
        values = [pairs.pop(k) for k in ("elo0", "elo1", "alpha", "beta")]
    except KeyError as missing:
        raise SpellingError(f"-sprt needs elo0= elo1= alpha= beta= (missing {missing.args[0]}=)") from None
    if pairs:
        raise SpellingError(f"-sprt: {', '.join(sorted(pairs))}= not supported (elo0, elo1, alpha, beta)")
    return ["--sprt", *values]


def translate(argv: Sequence[str]) -> list[str]:
    """argv with cutechess/fastchess spellings of match and tournament rewritten to ours."""
    words = list(argv)
    command = next((w for w in words if not w.startswith("-")), None)
    if command not in GAME_COMMANDS:
        return words
    out: list[str] = []
    rounds: str | None = None
    games_at: int | None = None
    i = 0
    while i < len(words):
        word = words[i]
        if word in RENAMED:
            if i + 1 >= len(words):
                raise SpellingError(f"{word} needs a value")
            if word == "-rounds" and command == "match":
                rounds = words[i + 1]             # cutechess: games x rounds in a two-engine match
                i += 2
                continue
            if word == "-games":
                games_at = len(out) + 1
            out += [RENAMED[word], words[i + 1]]
            i += 2
            if word == "-pgnout":                 # -pgnout FILE [min] [fi]: the PGN is always complete here
                while i < len(words) and words[i] in ("min", "fi"):
                    i += 1
        elif word in IGNORED:
            i += 1
        elif word in REFUSED:
            raise SpellingError(f"{word}: {REFUSED[word]}")
        elif word == "-openings":
            pairs, i = _take_pairs(words, i + 1)
            out += _openings(pairs)
        elif word == "-sprt":
            pairs, i = _take_pairs(words, i + 1)
            out += _sprt(pairs)
        else:
            out.append(word)
            i += 1
    if rounds is not None:
        try:
            per_round, count = int(out[games_at]) if games_at is not None else 1, int(rounds)
        except ValueError:
            raise SpellingError(f"-rounds needs a whole number, not {rounds!r}") from None
        if games_at is None:
            out += ["--games", str(per_round * count)]
        else:
            out[games_at] = str(per_round * count)
    return out
