"""One policy for both doors of the server.

``marquoir.asgi`` serves a request through one of two doors: Django (the pages and the API,
through ``settings.MIDDLEWARE``), or a plain ASGI application (the live streams'
``stream_app``, which holds no thread per open stream: see ``marquoir.tables.stream``; the
body reader's refusals, ``marquoir.bodies``). What the site asks of every request and puts
on every answer must not depend on the door, so each rule is one function, called by the
middleware in charge of it on Django's door and gathered here for the other:

============  ==========================================  ==============================
rule          the one function                            on Django's door
============  ==========================================  ==============================
host          ``bad_requests.host_refusal``               ``BadRequestMiddleware``
HTTPS         ``SecurityMiddleware.process_request``      ``SecurityMiddleware``
methods       ``ApiErrorMiddleware.after`` on a 405       ``require_GET`` + the same
headers       ``security.add_security_headers``           ``ContentSecurityPolicyMiddleware``
access log    ``logs.log_access``                         ``AccessLogMiddleware``
============  ==========================================  ==============================

A test holds the doors together header for header (tests/tables/test_live.py).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotAllowed

from .bad_requests import host_refusal
from .logs import log_access
from .security import add_security_headers, django_security_middleware, no_view
from .tables.api_errors import ApiErrorMiddleware

__all__ = ["django_request", "finish", "log_access", "refusal", "response_start", "security_headers"]


def django_request(scope: dict[str, Any]) -> HttpRequest:
    """Django's request for ``scope``, with an empty body: what reads only the headers and
    the client's address (the policy, ``client_key``) reads it as for a page."""
    return ASGIRequest(dict(scope), io.BytesIO())


# Holds no state: its ``after`` is the API's answer to a method an address does not serve.
_api_answers = ApiErrorMiddleware(no_view)


def refusal(request: HttpRequest, allowed_methods: Sequence[str]) -> HttpResponse | None:
    """The answer that refuses ``request`` before any view, or None: a host we do not serve,
    plain HTTP where HTTPS is required (a redirect), a method not in ``allowed_methods``
    (``OPTIONS`` answered with them, 204; anything else the contract's 405). In the order
    of ``settings.MIDDLEWARE``."""
    refused = host_refusal(request)
    if refused is None:
        security, _frames = django_security_middleware()
        refused = security.process_request(request)
    if refused is None and request.method not in allowed_methods:
        # What Django's ``require_http_methods`` answers, worded as the API words it.
        refused = _api_answers.after(request, HttpResponseNotAllowed(allowed_methods), 0.0)
    return refused


def finish(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response`` with the headers every answer of the site carries."""
    add_security_headers(request, response)
    return response


def security_headers(scope: dict[str, Any]) -> list[tuple[str, str]]:
    """The headers ``finish`` puts on an answer of its own, for a door that builds its
    answer by hand (``marquoir.bodies``)."""
    blank = finish(django_request(scope), HttpResponseBase())
    return [(name, value) for name, value in blank.items() if name.lower() != "content-type"]


def response_start(response: HttpResponseBase) -> dict[str, Any]:
    """The ASGI ``http.response.start`` of ``response``, as Django's ASGI handler sends it;
    with its length when it is not a stream."""
    if isinstance(response, HttpResponse):
        response.headers.setdefault("Content-Length", str(len(response.content)))
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.items()]
    headers += [
        (b"set-cookie", cookie.output(header="").strip().encode("latin-1")) for cookie in response.cookies.values()
    ]
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}
