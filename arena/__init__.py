"""isaac-arena's standing competition (`isaac-arena`): bots submitted over weeks, checked, rated on a
never-ending ladder and shown on web pages; every game is played and recorded by the referee.

The parts (docs/arena.md, docs/architecture.md): ``config`` (the arena directory's arena.toml),
``db`` (the database: tables, migrations, queries), ``intake`` (archives, manifests, builds,
checks), ``ladder`` (ratings, pairings, playing games), ``web`` (pages and the JSON API),
``season`` (the final round-robin and the export) and ``cli`` (the `isaac-arena` command).
"""
