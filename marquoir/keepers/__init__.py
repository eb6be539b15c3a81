"""Score keepers, one Django app per game: the game's actions and their schemas, its State,
its table screen, its words in both languages, its assistant and its own endpoints, on top
of the game's pure engine (``marquoir.games.<game>``) and the match core (``marquoir.tables``),
which never imports them (see ``marquoir.tables.keepers``)."""
