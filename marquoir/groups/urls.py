"""A group's pages, under the language prefix."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "groups"
urlpatterns = [
    path(_("groups/"), views.index, name="index"),
    path(_("groups/import/"), views.import_group, name="import"),
    path("groups/<str:group_id>/", views.group_page, name="group"),
    path("groups/<str:group_id>/stats/", views.stats, name="stats"),
    path("groups/<str:group_id>/export/", views.export, name="export"),
    path("groups/<str:group_id>/join/", views.join, name="join"),
    path("groups/<str:group_id>/players/", views.add_player, name="add-player"),
    path("groups/<str:group_id>/players/<int:member_id>/", views.rename, name="rename"),
    path("groups/<str:group_id>/matches/", views.attach, name="attach"),
    path("groups/<str:group_id>/matches/<str:play_id>/delete/", views.delete_play, name="delete-play"),
    path("groups/<str:group_id>/delete/", views.delete_group, name="delete"),
    path("groups/<str:group_id>/new/<str:game>/", views.new_match, name="new-match"),
]
