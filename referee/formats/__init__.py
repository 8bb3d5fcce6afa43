"""What the referee's words and files mean (SPEC.md section 10), as values every other room shares:
time controls, terminations, the game record, and one schema per file the referee reads or writes.
Nothing here runs an engine or a game."""
