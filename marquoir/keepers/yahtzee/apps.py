from django.apps import AppConfig


class YahtzeeKeeperConfig(AppConfig):
    name = "marquoir.keepers.yahtzee"
    label = "yahtzee_keeper"
    # The match core finds the game's keeper here (marquoir.tables.keepers); the catalog
    # reads which game it keeps the score of, to offer "Keep score" on its page.
    game = "yahtzee"
    score_keeper = "marquoir.keepers.yahtzee.keeper.KEEPER"
