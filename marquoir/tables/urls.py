"""Score-keeping pages, under the language prefix."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from . import views

app_name = "tables"
urlpatterns = [
    path(_("tables/"), views.my_matches, name="mine"),
    path(_("tables/new/<str:game>/"), views.new_match, name="new"),
    path("tables/<str:match_id>/", views.table, name="table"),
    path("tables/<str:match_id>/act/", views.act, name="act"),
    path("tables/<str:match_id>/join/", views.join, name="join"),
    path("tables/<str:match_id>/card.svg", views.card, name="card"),
    path("tables/<str:match_id>/screen/", views.big_screen, name="screen"),
    path("tables/<str:match_id>/assistant/", views.assistant, name="assistant"),
]
