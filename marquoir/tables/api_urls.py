"""The API's addresses, outside the language prefix."""

from django.urls import path

from .api import get_api
from .stream import match_stream

urlpatterns = [
    # Before ninja's routes: a plain async Django view, since ninja does not stream.
    path("api/v1/matches/<str:match_id>/events", match_stream, name="match-events"),
    path("api/v1/", get_api().urls),
]
