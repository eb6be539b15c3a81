from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "marquoir.groups"
    verbose_name = "Groups"

    def ready(self) -> None:
        # The groups' API joins the one API (before its addresses are first read).
        from marquoir.tables.screen import add_table_part
        from marquoir.tables.services import follow_writes

        from . import api  # noqa: F401
        from .services import follow_match
        from .table_part import group_of_table

        # A group's plays follow their matches as they are written.
        follow_writes(follow_match)
        # A match's table names its group, links back to it, and rematches into it.
        add_table_part(group_of_table)
