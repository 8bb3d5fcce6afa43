"""isaac-referee: matches and tournaments between engine executables, every move validated.

The referee is in rooms, each importing only the rooms below it (docs/architecture.md draws them):

    cli | pictures       the command lines: isaac-referee, isaac-svg
    books | check        building and re-judging opening books; the conformance check
    matches              one game under the referee's clocks; a run's schedule, openings, plan, runner
    engines | results    untrusted engine processes; the run directory, counts, statistics, outputs
    formats              SPEC 10 as values: time controls, terminations, the record, the schemas
"""
