"""Running games: one game between two players under the referee's clocks, the schedule and the
openings of a run, its plan, the runner that plays the games concurrently (or on a Dask cluster),
what the run knows of its finished games, and what a person or the GUI sees while it goes."""
