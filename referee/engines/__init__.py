"""The engines the referee runs: untrusted processes (their own process group, bounded reads,
certain death), the sandbox and fair CPU around them, the protocol client, an engine as a player,
the pool that keeps them between games, and engines as configured (command line, engines file)."""
