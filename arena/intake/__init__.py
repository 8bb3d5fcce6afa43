"""A submission's way in: the archive unpacked safely (``archive``), its manifest read
(``manifest``), its build run in the sandbox (``build``) and the referee's check on it
(``pipeline``), before the bot may enter the ladder."""
