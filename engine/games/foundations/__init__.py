"""The engine's FOUNDATIONS: move ordering, the static value model, playouts, their C core, and the searcher."""
