"""What the engine knows of each game: one package per game (candidates, evaluation, playouts, a
native core and its Python mirror, and the game's searcher), apart from the generic search
techniques in engine/search/ and from each other."""
