from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "marquoir.groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        # The groups' API joins the one API (before its addresses are first read).
        from marquoir.tables.services import follow_writes

        from . import api  # noqa: F401
        from .services import follow_match

        # A group's plays follow their matches as they are written.
        follow_writes(follow_match)
