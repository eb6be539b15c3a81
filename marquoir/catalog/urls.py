"""Catalog pages, under the language prefix; the game page's path is translated."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "catalog"
urlpatterns = [
    path("", views.home, name="home"),
    path(_("games/<slug:slug>/"), views.game, name="game"),
]
