"""The end of a season: the final round-robin among the ladder's best (``final``) and the whole
season exported in the referee's formats (``export``)."""
