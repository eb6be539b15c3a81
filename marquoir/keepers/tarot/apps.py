from django.apps import AppConfig


class TarotKeeperConfig(AppConfig):
    name = "marquoir.keepers.tarot"
    label = "tarot_keeper"
    # The match core finds the game's keeper here (marquoir.tables.keepers); the catalog
    # reads which game it keeps the score of, to offer "Keep score" on its page.
    game = "tarot"
    score_keeper = "marquoir.keepers.tarot.keeper.KEEPER"
