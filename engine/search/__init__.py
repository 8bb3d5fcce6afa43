"""Strategy search: the engine's real player (SPEC.md, "Strategy search").

driver.search() is the entry point; per game, isaac_search (PUCT MCTS in the
placement phase, alpha-beta in the scoring phase), foundations_search and
hari_search (alpha-beta with leaves judged by a packing race of both hands,
hari_eval) choose the move; mcts, alphabeta, timeman (the clock) and context (`info` lines) are
shared; isaac_knowledge and space hold the game knowledge.
"""
