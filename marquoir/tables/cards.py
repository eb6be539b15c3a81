"""A match's result card: an SVG image to share, drawn on the server.

Presentation attributes only, no ``style`` (the site's Content-Security-Policy allows no
inline style), fonts the phone has, and every name escaped: a card is text someone typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.translation import gettext as _

from .summary import MatchSummary

WIDTH = 600
ROW = 56
HEAD = 128
FOOT = 56


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def verdict(summary: MatchSummary, players: Sequence[str]) -> str:
    """Who won, in a sentence: "Winner: Ada", "Shared win: Ada, Ben", or "In progress"."""
    if not summary.over:
        return _("In progress")
    names = ", ".join(players[seat] for seat in summary.winners)
    if len(summary.winners) == 1:
        return _("Winner: %(names)s") % {"names": names}
    return _("Shared win: %(names)s") % {"names": names}


def result_card(
    *, game_name: str, players: Sequence[str], summary: MatchSummary, ended_at: datetime, site_name: str
) -> str:
    """The card: the game, the date, every player by place with their score, winners marked."""
    order = sorted(range(len(players)), key=lambda seat: (summary.ranks[seat], seat))
    height = HEAD + ROW * len(order) + FOOT
    when = date_format(ended_at, "DATE_FORMAT")
    verdict_text = verdict(summary, players)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(game_name)}: {escape(verdict_text)}" '
        'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" rx="24" fill="#1f2a44"/>',
        f'<text x="32" y="56" font-size="34" font-weight="700" fill="#ffffff">{escape(game_name)}</text>',
        f'<text x="32" y="92" font-size="20" fill="#d6def0">{escape(when)} · {escape(verdict_text)}</text>',
    ]
    for row, seat in enumerate(order):
        top = HEAD + row * ROW
        winner = seat in summary.winners
        fill = "#ffd45c" if winner else "#ffffff"
        parts.append(f'<rect x="24" y="{top}" width="{WIDTH - 48}" height="{ROW - 8}" rx="12" fill="#2c3a5c"/>')
        parts.append(
            f'<text x="44" y="{top + 33}" font-size="24" font-weight="700" fill="{fill}">{summary.ranks[seat]}.</text>'
        )
        name = players[seat] if len(players[seat]) <= 24 else players[seat][:23] + "…"
        parts.append(
            f'<text x="92" y="{top + 33}" font-size="24" fill="{fill}">{"★ " if winner else ""}{escape(name)}</text>'
        )
        parts.append(
            f'<text x="{WIDTH - 44}" y="{top + 33}" font-size="24" font-weight="700" fill="{fill}" '
            f'text-anchor="end">{escape(_score(summary.scores[seat]))}</text>'
        )
    parts.append(
        f'<text x="{WIDTH - 32}" y="{height - 22}" font-size="18" fill="#d6def0" text-anchor="end">'
        f"{escape(site_name)}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
