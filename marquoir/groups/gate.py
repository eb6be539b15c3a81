"""The group import's gate, asked before its file is read (marquoir.bodies): an address
that has spent its import budget is refused at once, without reading the megabytes it sends.
Refused imports count toward the budget (``services.spend_import``); once it is spent,
sending the file again costs the server nothing but this answer."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from marquoir.bodies import Refusal, refusal_for, request_language
from marquoir.policy import django_request
from marquoir.tables.ratelimit import client_key

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
        title = _("Too many requests")
    return refusal_for(
        scope,
        429,
        language,
        payload={"error": {"code": refused.code, "message": message}},
        title=title,
        sentence=message,
        headers=[("Retry-After", str(refused.params["retry_after"]))],
    )
