"""The ladder: ratings with their uncertainty (``ratings``), who plays whom next (``pairing``), the
bots as engine processes (``players``), and the never-ending loop that plays game pairs through
the referee and records them (``runner``; on a Dask cluster ``cluster``)."""
