"""Strategy search: the engine's real player (SPEC.md, "Strategy search").

driver.search() is the entry point; per game, isaac_search (PUCT MCTS in the
placement phase, alpha-beta in the scoring phase), foundations_search and
hari_search (PUCT MCTS with progressive widening and playouts) choose the
move; mcts, alphabeta, timeman (the clock) and context (`info` lines) are
shared; isaac_knowledge and space hold the game knowledge.
"""
