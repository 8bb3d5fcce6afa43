"""What a run knows of its finished games while it plays: counts, the games its report shows, and
how it got them from the run directory (a checkpoint and the records after it, or every record).

Nothing here grows with the number of games (referee/results/tally.py); records.jsonl is read as a
stream. The runner asks the tracker for a checkpoint every CHECKPOINT_EVERY games and at the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..results.checkpoint import load_checkpoint
from ..results.report import ShownGames
from ..results.store import RECORDS, RecordsEnd, Store, StoreError, check_record_line
from ..results.tally import MatchStats, RunTally
from ..results.text import score_text
from .plan import RunPlan


@dataclass(frozen=True)
class Loaded:
    """How a tracker was loaded: where records.jsonl's whole records end, how many records were
    read (validated) now, whether a checkpoint covered the rest, and how far games.pgn is good
    (None: it must be rebuilt from the records)."""

    end: RecordsEnd
    read: int
    from_checkpoint: bool
    pgn_bytes: int | None
    checkpoint_end: RecordsEnd | None = None
    """Where the checkpoint stopped (the records after it were read now)."""


class Tracker:
    """The running statistics of a run's records so far (loaded ones included) and the games its
    report embeds."""

    def __init__(self, plan: RunPlan, records: Iterable[dict[str, Any]] = ()):
        self.plan = plan
        self.names = [spec.name for spec in plan.engines]
        self.tally = self._new_tally()
        self.shown = ShownGames()
        self.since_checkpoint = 0
        for record in records:
            self.add(record)

    def _new_tally(self) -> RunTally:
        match = (self.names[0], self.names[1]) if self.plan.mode == "match" and len(self.names) >= 2 else None
        return RunTally(self.names, match, self.plan.sprt)

    @property
    def match(self) -> MatchStats | None:
        return self.tally.match

    @property
    def recorded(self) -> int:
        """Records of this run's schedule counted so far."""
        return self.tally.recorded

    def add(self, record: dict[str, Any], offset: int | None = None) -> bool:
        """Count one record (as written); False (not counted) if its game is not in the schedule."""
        game_id = record["game_id"]
        if not 0 <= game_id < len(self.plan.schedule):
            return False
        self.tally.add(record)
        self.shown.add(record, offset)
        self.since_checkpoint += 1
        return True

    def is_done(self, game_id: int) -> bool:
        return game_id in self.tally.done

    def sprt_decision(self) -> str | None:
        return self.tally.sprt_decision()

    def score_text(self) -> str:
        return score_text(self.tally)

    # -- loading --------------------------------------------------------------------------------
    def load(self, store: Store, identity: dict[str, Any]) -> Loaded:
        """Count the run's records: from its checkpoint plus the records after it when the checkpoint
        matches records.jsonl, else every record. StoreError names the first bad line."""
        found = load_checkpoint(store, identity)
        start: RecordsEnd | None = None
        pgn_bytes: int | None = None
        offsets: list[int] = []
        if found is not None:
            data, end = found
            try:
                self.tally.load_state(data["tally"])
                start = end
                offsets = [int(o) for o in data["report_offsets"]]
                pgn = data.get("pgn_bytes")
                pgn_bytes = int(pgn) if isinstance(pgn, int) else None
            except (KeyError, TypeError, ValueError):
                self.tally = self._new_tally()
                start = None
        if start is not None:
            for offset in offsets:
                record = _record_at(store, offset)
                if record is not None:
                    self.shown.add(record, offset)
        reader = store.reader(start, seen=self.tally.done)
        read = 0
        try:
            for record in reader:
                self.add(record, reader.last_offset)
                read += 1
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"{store.path(RECORDS)}, line {reader.lines}: a record this referee cannot "
                             f"count: {exc}") from None
        self.since_checkpoint = 0 if read == 0 else self.since_checkpoint
        end = RecordsEnd(reader.keep, reader.lines, reader.hashing)
        return Loaded(end, read, start is not None, pgn_bytes if start is not None else None, start)


def _record_at(store: Store, offset: int) -> dict[str, Any] | None:
    """The record whose line starts at `offset` of records.jsonl (checked), or None."""
    try:
        with open(store.path(RECORDS), "rb") as handle:
            handle.seek(offset)
            raw = handle.readline()
    except OSError:
        return None
    checked = check_record_line(raw.rstrip(b"\n"), f"{store.path(RECORDS)}, byte {offset}")
    return checked if isinstance(checked, dict) else None

