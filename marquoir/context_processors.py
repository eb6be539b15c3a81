"""Values every page template needs."""

from __future__ import annotations

from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, object]:
    """The site's name, for titles and the header."""
    return {"site_name": "Marquoir"}
