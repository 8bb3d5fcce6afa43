"""The engine's ISAAC: placement and scoring knowledge, and the searcher that uses them."""
