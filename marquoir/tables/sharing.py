"""The two links of a table, and their QR codes (SVG, drawn on the server by segno)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from .capabilities import edit_token_for
from .models import Match


@dataclass(frozen=True)
class SharedLink:
    url: str
    qr_svg: SafeString


@lru_cache(maxsize=512)
def qr_svg(url: str) -> SafeString:
    """A QR code of ``url`` as inline SVG: black on white whatever the theme, for scanners.

    Drawing one costs about ten milliseconds and a table's links never change: remembered.
    """
    code = segno.make(url, error="m")
    # segno writes only paths and attributes it builds from the URL's bits: nothing to escape.
    return mark_safe(  # noqa: S308
        code.svg_inline(scale=4, dark="#000", light="#fff", omitsize=True, svgclass="qr", lineclass="qr__modules")
    )


def absolute_url(request: HttpRequest, path: str) -> str:
    """``path`` as an address other devices can open: under ``MARQUOIR_PUBLIC_URL`` when it is
    set (`make run` sets this machine's address on the local network, so a phone scanning the
    code of a table opened at 127.0.0.1 still reaches it), else under the request's own."""
    public = settings.MARQUOIR_PUBLIC_URL
    return public + path if public else request.build_absolute_uri(path)


def watch_link(request: HttpRequest, match: Match) -> SharedLink:
    """Read only: the table's own address (the id is the capability to watch)."""
    url = absolute_url(request, reverse("tables:table", args=[match.id]))
    return SharedLink(url, qr_svg(url))


def keep_score_link(request: HttpRequest, match: Match) -> SharedLink:
    """Keep score too: the join page with the edit token in the fragment.

    A fragment is never sent to a server, so the token stays out of every access log and
    Referer; the join page's script moves it into a POST.
    """
    url = absolute_url(request, reverse("tables:join", args=[match.id])) + "#key=" + edit_token_for(match.id)
    return SharedLink(url, qr_svg(url))
