from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "marquoir.groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        # The groups' API joins the one API (before its addresses are first read).
        from . import api  # noqa: F401
