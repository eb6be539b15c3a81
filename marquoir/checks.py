"""Deployment checks of our own, run by `manage.py check --deploy`."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

from .env import DEVELOPMENT_SECRET_KEY


@register(Tags.security, deploy=True)
def secret_key_is_not_the_development_one(app_configs: Any, **kwargs: Any) -> list[CheckMessage]:
    """The development key is public (it is in the repository): it must never sign in production.

    Django's own check does not catch it, since it is long and not prefixed "django-insecure".
    Nothing outside the tests falls back to it (marquoir.settings); this catches a copy of it
    set by hand, as the key or as an old key still accepted.
    """
    if DEVELOPMENT_SECRET_KEY in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
        return [
            Error(
                "SECRET_KEY (or one of SECRET_KEY_FALLBACKS) is the development key from the repository.",
                hint="Set SECRET_KEY in the environment (scripts/serve.sh makes one for a try-out).",
                id="marquoir.E001",
            )
        ]
    return []
