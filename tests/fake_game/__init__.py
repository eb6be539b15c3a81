"""A fake game for tests: a tiny pure engine and the fewest keeper members the kit allows.

Installed only by the tests that ask for it (``tests.keepers.test_fake_game``), never by the
site: it shows the match core runs with a game it has never seen, and what a new game
must write at the least (docs/adding-a-game.md).
"""
