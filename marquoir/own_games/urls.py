"""Your own games' pages, under the language prefix."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "own_games"
urlpatterns = [
    path(_("own-games/"), views.start, name="start"),
    path(_("own-games/new/"), views.new, name="new"),
    path(_("own-games/import/"), views.file, name="import"),
    path(_("own-games/check/"), views.check, name="check"),
    path(_("own-games/<str:game_id>/"), views.page, name="game"),
    path(_("own-games/<str:game_id>/edit/"), views.edit, name="edit"),
    path(_("own-games/<str:game_id>/file/"), views.file, name="file"),
    path(_("own-games/<str:game_id>/export/"), views.export, name="export"),
]
