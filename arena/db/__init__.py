"""The arena's database: the tables (``schema``), opening and migrating it (``database``), and the
reads and writes of each part (``authors``, ``bots``, ``results``, ``pages``)."""
