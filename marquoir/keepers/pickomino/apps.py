from django.apps import AppConfig


class PickominoKeeperConfig(AppConfig):
    name = "marquoir.keepers.pickomino"
    label = "pickomino_keeper"
    # The match core finds the game's keeper here (marquoir.tables.keepers).
    score_keeper = "marquoir.keepers.pickomino.keeper.KEEPER"
