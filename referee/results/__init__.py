"""What a run leaves and what is computed from it: the run directory (records, checkpoint, repair),
the counts of its games, the Elo and SPRT arithmetic, the ratings, and the outputs (text for
people, report.html, PGN). Nothing here runs an engine."""
