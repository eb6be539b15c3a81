from django.apps import AppConfig


class OwnGamesConfig(AppConfig):
    name = "marquoir.own_games"
    label = "own_games"
    verbose_name = "Your own games"

    def ready(self) -> None:
        # The own games' API joins the one API (before its addresses are first read).
        from . import api  # noqa: F401
