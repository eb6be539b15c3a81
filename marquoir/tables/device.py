"""This device: a random secret in a cookie, so "my matches" and names follow the phone, not an account."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE_NAME = "marquoir_device"
COOKIE_MAX_AGE = 2 * 365 * 24 * 3600


def device_secret(request: HttpRequest) -> str | None:
    """The device's secret, if the browser sent a well-formed one."""
    value = request.COOKIES.get(COOKIE_NAME, "")
    return value if 20 <= len(value) <= 64 and value.replace("-", "").replace("_", "").isalnum() else None


def ensure_device_secret(request: HttpRequest) -> str:
    """The device's secret, made now if it has none (``remember_device`` then sets the cookie)."""
    existing = device_secret(request) or getattr(request, "new_device_secret", None)
    if existing:
        return existing  # one secret per request, however often asked for
    fresh = secrets.token_urlsafe(32)
    request.new_device_secret = fresh  # type: ignore[attr-defined]
    return fresh


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the cookie if this request made a new device secret."""
    fresh = getattr(request, "new_device_secret", None)
    if fresh:
        response.set_cookie(
            COOKIE_NAME,
            fresh,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response
