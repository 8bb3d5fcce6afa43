"""The fast part of the fuzz suite: every target of fuzz_oracles.py for a few hundred examples.

The long run is `python benchmarks/fuzz.py --seconds N` (docs/fuzzing.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.fuzz_oracles import SEEDS, TARGETS

EXAMPLES = {"engine": 25, "engines-file": 60, "records": 80, "run-config": 80}
"""Examples per target in the default test run (the rest: 150); about 20 s in all."""


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_target(name):
    inputs, oracle = TARGETS[name]
    for case in SEEDS[name]:
        oracle(case)

    @settings(max_examples=EXAMPLES.get(name, 150), deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(inputs)
    def run(case):
        oracle(case)

    run()
