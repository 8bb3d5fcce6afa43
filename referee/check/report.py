"""The check's report: each result with its status and tier, a verdict per tier, text and JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """How one check went. SKIP: an optional feature the engine does not have."""

    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"


class Tier(StrEnum):
    """REQUIRED: what a tournament needs of an engine. RECOMMENDED: what makes it pleasant to use
    and to debug (error lines, `d`, `moves`, perft, stop, GUI commands)."""

    REQUIRED = "required"
    RECOMMENDED = "recommended"


@dataclass
class CheckResult:
    name: str
    status: Status
    detail: str = ""
    tier: Tier = Tier.REQUIRED
    hint: str = ""
    """The usual cause of a failure and where docs/bots.md says how to fix it (empty if none is usual)."""


@dataclass
class CheckReport:
    command: list[str]
    results: list[CheckResult] = field(default_factory=list)
    engine_name: str | None = None

    def tier_results(self, tier: Tier) -> list[CheckResult]:
        return [r for r in self.results if r.tier == tier]

    def verdict(self, tier: Tier) -> Status:
        """FAIL if any check of the tier failed, else PASS (a tier of skips alone passes)."""
        return Status.FAIL if any(r.status == Status.FAIL for r in self.tier_results(tier)) else Status.PASS

    @property
    def ok(self) -> bool:
        """True when the required tier passes: the engine can take part in tournaments."""
        return bool(self.results) and self.verdict(Tier.REQUIRED) == Status.PASS

    @property
    def conforms(self) -> bool:
        """True when nothing failed in any tier."""
        return self.ok and self.verdict(Tier.RECOMMENDED) == Status.PASS

    def counts(self, tier: Tier | None = None) -> dict[str, int]:
        out = {status.value: 0 for status in Status}
        for r in self.results if tier is None else self.tier_results(tier):
            out[r.status] += 1
        return out

    def render(self) -> str:
        width = max((len(r.name) for r in self.results), default=10)
        lines = [f"check of {' '.join(self.command)}" + (f" ({self.engine_name})" if self.engine_name else "")]
        for tier in Tier:
            results = self.tier_results(tier)
            if not results:
                continue
            c = self.counts(tier)
            lines.append(f"{tier}: {self.verdict(tier)} ({c['PASS']} passed, {c['FAIL']} failed, "
                         f"{c['SKIP']} skipped)")
            for r in results:
                lines.append(f"  {r.status:4}  {r.name:{width}}  {r.detail}".rstrip())
                if r.hint and r.status == Status.FAIL:
                    lines.append(f"  {'':4}  {'':{width}}  hint: {r.hint}")
        c = self.counts()
        if self.conforms:
            verdict = "the engine conforms"
        elif self.ok:
            verdict = "the engine can play in tournaments (required tier passes; see the recommended failures)"
        else:
            verdict = "the engine DOES NOT CONFORM (required tier fails)"
        lines.append(f"{c['PASS']} passed, {c['FAIL']} failed, {c['SKIP']} skipped: {verdict}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, "engine": self.engine_name, "ok": self.ok, "conforms": self.conforms,
                "tiers": {tier.value: {"verdict": self.verdict(tier), **self.counts(tier)} for tier in Tier},
                "results": [{"name": r.name, "tier": r.tier, "status": r.status, "detail": r.detail,
                             **({"hint": r.hint} if r.hint else {})} for r in self.results]}
