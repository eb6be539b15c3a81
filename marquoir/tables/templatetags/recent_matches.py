"""``{% recent_matches %}``: this device's matches in progress and just finished, for pages
outside the tables app (the home page) that may not import it (see the import-linter
contract in pyproject.toml): ``{% load recent_matches %}`` then ``{% recent_matches %}``."""

from __future__ import annotations

import logging
from typing import Any

from django import template
from django.db import DatabaseError

from ..device import device_secret
from ..recent import RecentMatches
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
