"""Numbers and lists of names as each language writes them.

English writes ``+3.64``, ``15%`` and ``Ada, Ben and Cy``; French writes ``+3,64``,
``15 %`` (a narrow no-break space before the sign) and ``Ada, Ben et Cy``. Both use the
true minus sign (U+2212), not a hyphen, in front of a negative number.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import formats
from django.utils.translation import gettext as _

MINUS = "\u2212"


def decimal(value: float, places: int = 2) -> str:
    """``value`` with ``places`` decimals and the language's decimal mark, the true minus sign."""
    # Rounded here: Django's number_format cuts the digits after ``places`` (254.5877 → 254.5).
    text = formats.number_format(round(abs(value), places), decimal_pos=places, use_l10n=True)
    negative = round(value, places) < 0
    return f"{MINUS}{text}" if negative else text


def signed(value: float, places: int = 2) -> str:
    """A gain or a loss: ``+3.64``, ``−0.50``, ``+0.00`` (English); ``+3,64`` (French)."""
    text = decimal(value, places)
    return text if text.startswith(MINUS) else f"+{text}"


def percent(chance: float) -> str:
    """A chance as a whole percentage, never 0 or 100 for what is merely unlikely or likely."""
    value = round(chance * 100)
    if value == 0 and chance > 0:
        # Translators: a chance under one per cent; write the per cent sign as your language does.
        return _("<%(value)s%%") % {"value": 1}
    if value == 100 and chance < 1:
        # Translators: a chance over 99 per cent.
        return _(">%(value)s%%") % {"value": 99}
    # Translators: a whole percentage; French puts a narrow no-break space before the sign.
    return _("%(value)s%%") % {"value": value}


def join_names(names: Sequence[str]) -> str:
    """``Ada``, ``Ada and Ben``, ``Ada, Ben and Cy`` in the current language."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    # Translators: the end of a list of names: "Ada, Ben and Cy".
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
