from django.apps import AppConfig


class SheetKeeperConfig(AppConfig):
    name = "marquoir.keepers.sheet"
    label = "sheet_keeper"
    # The match core finds the game's keeper here (marquoir.tables.keepers); the catalog
    # reads which game it keeps the score of, to offer "Keep score" on its page.
    game = "sheet"
    score_keeper = "marquoir.keepers.sheet.keeper.KEEPER"
