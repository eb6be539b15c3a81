"""Marquoir's addresses: pages under a language prefix (/en/, /fr/), the API and health without."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("marquoir.catalog.root_urls")),
    path("", include("marquoir.tables.api_urls")),
]
urlpatterns += i18n_patterns(
    path("", include("marquoir.catalog.urls")),
    path("", include("marquoir.tables.urls")),
    path("", include("marquoir.groups.urls")),
    path("", include("marquoir.own_games.urls")),
    prefix_default_language=True,
)

# What Django refuses as suspicious (a foreign host, a form over its limits): short, and JSON
# on /api/ (with DEBUG on, marquoir.bad_requests.BadRequestMiddleware answers first).
handler400 = "marquoir.bad_requests.bad_request"
