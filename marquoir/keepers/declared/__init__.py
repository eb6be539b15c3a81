"""One keeper for every game declared as data (marquoir.games.declared)."""
