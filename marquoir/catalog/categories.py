"""What people read for each game category, in their language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CATEGORY_LABELS: dict[str, Promise] = {
    "dice": _("Dice games"),
    "cards": _("Card games"),
    "board": _("Board games"),
    "party": _("Party games"),
    "cooperative": _("Cooperative games"),
    "outdoor": _("Outdoor games"),
}


def category_label(category: str) -> str:
    """The translated label of ``category``; the key itself when none is defined."""
    label = CATEGORY_LABELS.get(category)
    return str(label) if label is not None else category
