"""``{% recent_matches %}``: this device's matches in progress and just finished, for pages
outside the tables app (the home page) that may not import it (see the import-linter
contract in pyproject.toml): ``{% load recent_matches %}`` then ``{% recent_matches %}``;
and ``{% played_here %}``: the games this device played last, for the catalog to show first."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django import template
from django.db import DatabaseError

from ..capabilities import device_matches
from ..device import device_secret
from ..recent import SCANNED, RecentMatches
from ..recent import recent_matches as read_recent_matches

register = template.Library()
logger = logging.getLogger(__name__)


@register.inclusion_tag("tables/_recent_matches.html", takes_context=True)
def recent_matches(context: template.Context) -> dict[str, Any]:
    """The fragment, empty for a device with no match (or no cookie: then no query at all)."""
    request = context.get("request")
    secret = device_secret(request) if request is not None else None
    try:
        recent = read_recent_matches(secret)
    except DatabaseError:
        # The page around it (the catalog) needs no database: it still shows, without these.
        logger.exception("recent matches: the database does not answer")
        recent = RecentMatches()
    return {"recent": recent}


@register.simple_tag(takes_context=True)
def played_here(context: template.Context, among: Mapping[str, Any], limit: int = 4) -> list[Any]:
    """``{% played_here among limit=4 as played %}``: the values of ``among`` (by game key: the
    catalog's cards) for the games of this device's latest matches, most recently played
    first, each once, at most ``limit``. One bounded query (the device's latest ``SCANNED``
    links), none without a cookie; nothing if the database does not answer."""
    request = context.get("request")
    secret = device_secret(request) if request is not None else None
    if secret is None:
        return []
    try:
        rows = device_matches(device_secret=secret, limit=SCANNED)
    except DatabaseError:
        logger.exception("played here: the database does not answer")
        return []
    played: dict[str, Any] = {}
    for row, _can_edit in rows:
        if row.game in among and row.game not in played:
            played[row.game] = among[row.game]
            if len(played) == limit:
                break
    return list(played.values())
