"""The engine's HARI: candidate moves, the packing race, playouts, the alpha-beta C core, and the searcher."""
