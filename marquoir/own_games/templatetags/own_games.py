"""Words of an own game's file on its page, in the reader's language."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from marquoir.games.declared.gamefile import InputDef, Words
from marquoir.keepers.declared.words import local as local_words

register = template.Library()


@register.simple_tag(name="local")
def local(words: Words) -> str:
    """``words`` in the page's language (escaped by the template, as every label)."""
    return local_words(words)


@register.simple_tag
def part_line(words: Words, formula: str, what: str = "") -> SafeString:
    """One part of the game on its page: its words, its formula (or key) as code, and what it
    takes: "Cards left ``cards``: for each player, a number from -17 to 140"."""
    code = format_html("<code>{}</code>", formula)
    if what:
        return format_html(_("{words} {code}: {what}"), words=local_words(words), code=code, what=what)
    return format_html(_("{words}: {code}"), words=local_words(words), code=code)


@register.simple_tag
def input_text(item: InputDef) -> str:
    """What an input takes, in a few words: "for each player, a number from 0 to 12"."""
    who = _("for each player") if item.per == "player" else _("once for the round")
    kinds = {
        "points": _("a number"),
        "count": _("a count"),
        "flag": _("yes or no"),
        "player": _("a player"),
        "choice": _("one of a few values"),
        "counts": _("a group of counts"),
        "list": _("a list"),
        "records": _("a list of records"),
    }
    what = kinds.get(item.kind, item.kind)
    if item.min is not None and item.max is not None:
        what = _("%(what)s from %(least)s to %(most)s") % {"what": what, "least": item.min, "most": item.max}
    elif item.min is not None:
        what = _("%(what)s, at least %(least)s") % {"what": what, "least": item.min}
    elif item.max is not None:
        what = _("%(what)s, at most %(most)s") % {"what": what, "most": item.max}
    return _("%(who)s, %(what)s") % {"who": who, "what": what}
