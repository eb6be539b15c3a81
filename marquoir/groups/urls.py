"""A group's pages, under the language prefix."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "groups"

# A group's own pages, under its id: "/fr/groupes/<id>/" in French as its list is
# "/fr/groupes/". The addresses handed out before, "/fr/groups/<id>/…", still answer.
GROUP_PAGES: list[tuple[str, Callable[..., Any], str]] = [
    ("", views.group_page, "group"),
    ("stats/", views.stats, "stats"),
    ("export/", views.export, "export"),
    ("join/", views.join, "join"),
    ("players/", views.add_player, "add-player"),
    ("players/<int:member_id>/", views.rename, "rename"),
    ("matches/", views.attach, "attach"),
    ("matches/<str:play_id>/delete/", views.delete_play, "delete-play"),
    ("delete/", views.delete_group, "delete"),
    ("new/<str:game>/", views.new_match, "new-match"),
]


def _group_pages() -> list[URLPattern]:
    translated = [
        path(format_lazy("{}<str:group_id>/{}", _("groups/"), rest), view, name=name)
        for rest, view, name in GROUP_PAGES
    ]
    handed_out = [path(f"groups/<str:group_id>/{rest}", view) for rest, view, _name in GROUP_PAGES]
    return translated + handed_out


urlpatterns = [
    path(_("groups/"), views.index, name="index"),
    path(_("groups/import/"), views.import_group, name="import"),
    *_group_pages(),
]
