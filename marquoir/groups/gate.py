"""The group import's gate, asked before its file is read (marquoir.bodies): an address
that has spent its import budget is refused at once, without reading the megabytes it sends.
Refused imports count toward the budget (``services.spend_import``); once it is spent,
sending the file again costs the server nothing but this answer."""

from __future__ import annotations

import json
from typing import Any

from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from marquoir.bodies import Refusal, request_language
from marquoir.tables.api_errors import API_PREFIX
from marquoir.tables.ratelimit import client_key
from marquoir.tables.stream import django_request

from . import services
from .messages import group_message


def import_gate(scope: dict[str, Any]) -> Refusal | None:
    """The 429 an import from this client would get now, or None to read its file."""
    refused = services.import_budget_spent(client_key(django_request(scope)))
    if refused is None:
        return None
    language = request_language(scope)
    with translation.override(language):
        message = group_message(refused)
        if scope.get("path", "").startswith(API_PREFIX):
            content = json.dumps({"error": {"code": refused.code, "message": message}}).encode()
            content_type = "application/json"
        else:
            title = _("Too many requests")
            content = format_html(
                '<!doctype html><html lang="{}"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                "<title>{}</title></head><body><h1>{}</h1><p>{}</p></body></html>",
                language,
                title,
                title,
                message,
            ).encode()
            content_type = "text/html; charset=utf-8"
    return Refusal(429, content_type, content, language, [("Retry-After", str(refused.params["retry_after"]))])
