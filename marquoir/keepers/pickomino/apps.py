from django.apps import AppConfig


class PickominoKeeperConfig(AppConfig):
    name = "marquoir.keepers.pickomino"
    label = "pickomino_keeper"
    # The match core finds the game's keeper here (marquoir.tables.keepers); the catalog
    # reads which game it keeps the score of, to offer "Keep score" on its page.
    game = "pickomino"
    score_keeper = "marquoir.keepers.pickomino.keeper.KEEPER"
