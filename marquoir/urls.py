"""Marquoir's addresses: pages under a language prefix (/en/, /fr/), the API without one."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import URLPattern, URLResolver, include, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("marquoir.catalog.root_urls")),
]
urlpatterns += i18n_patterns(
    path("", include("marquoir.catalog.urls")),
    prefix_default_language=True,
)
