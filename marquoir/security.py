"""A strict Content Security Policy on every response: no inline script, nothing third-party."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

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


class ContentSecurityPolicyMiddleware(AfterViewMiddleware):
    """Adds the policy unless a view set its own (the API docs page needs its own)."""

    def after(self, request: HttpRequest, response: HttpResponse, started: float) -> HttpResponse:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
