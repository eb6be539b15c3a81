"""The headers every answer of the site carries: a strict Content Security Policy (no inline
script, nothing third-party), no camera or microphone or location, and Django's own
(``SecurityMiddleware``: HSTS over HTTPS, ``nosniff``, the referrer and opener policies;
``XFrameOptionsMiddleware``: no framing).

``add_security_headers`` is the one place that puts them on an answer: pages and the API get
it from ``ContentSecurityPolicyMiddleware``, the doors that answer without Django's middleware
(the live streams, the body reader's refusals) through ``marquoir.policy``.
"""

from __future__ import annotations

import functools

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware

from .middleware import AfterViewMiddleware

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=()"


def no_view(request: HttpRequest) -> HttpResponse:
    """The view behind a middleware built only for its hooks (the policy's): never called."""
    raise AssertionError("a middleware of the policy is asked only for its hooks")


@functools.cache
def django_security_middleware() -> tuple[SecurityMiddleware, XFrameOptionsMiddleware]:
    """Django's two middleware that say the security headers, for their hooks: built once,
    as they read their settings when built (a test that changes settings drops them, below)."""
    return SecurityMiddleware(no_view), XFrameOptionsMiddleware(no_view)


@receiver(setting_changed)
def _forget_django_security_middleware(**kwargs: object) -> None:
    django_security_middleware.cache_clear()


def add_security_headers(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Put the site's security headers on ``response``, leaving any it set itself (the API
    docs page has a policy of its own; a view exempt from ``X-Frame-Options`` stays so).

    Django's two middleware are asked for their share by their own response hooks rather
    than copied: their settings (``SECURE_*``, ``X_FRAME_OPTIONS``) then mean the same on
    every door. On pages both also run from ``settings.MIDDLEWARE`` (they must be listed
    there, for ``check --deploy`` and for the static files, served before this middleware);
    each header they set is set only where it is missing, so running them twice changes
    nothing."""
    security, frames = django_security_middleware()
    # django-stubs types these hooks for HttpResponse; Django runs them on every answer,
    # streaming ones included.
    frames.process_response(request, response)  # type: ignore[arg-type]
    security.process_response(request, response)  # type: ignore[arg-type]
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    return response


class ContentSecurityPolicyMiddleware(AfterViewMiddleware):
    """Puts the site's security headers (``add_security_headers``) on every answer of a view."""

    def after(self, request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        add_security_headers(request, response)
        return response
