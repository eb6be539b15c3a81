"""Addresses outside the language prefix: the bare root sends a visitor to their language.

Also the app's manifest and service worker (at the root, so that the worker's scope is the
whole site), and the offline page. That one has an address per language like the catalog's
pages (/en/offline/, /fr/hors-ligne/), but lives here: Django allows i18n_patterns in the
root URLconf only, so its route carries the active language's prefix itself.
"""

from django.conf import settings
from django.urls import path
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop

from . import pwa, views

# Marked here so that makemessages finds it (it cannot look inside an f-string).
OFFLINE_PATH = gettext_noop("offline/")


def _offline_route() -> str:
    """The offline page's route in the active language, prefix included: "fr/hors-ligne/"."""
    return f"{translation.get_language() or settings.LANGUAGE_CODE}/{gettext(OFFLINE_PATH)}"


urlpatterns = [
    path("", views.root, name="root"),
    path("healthz", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("manifest.webmanifest", pwa.manifest, name="pwa-manifest"),
    path("sw.js", pwa.service_worker, name="pwa-sw"),
    path(lazy(_offline_route, str)(), pwa.offline, name="pwa-offline"),
]
