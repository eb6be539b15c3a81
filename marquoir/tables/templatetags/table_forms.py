"""The core's parts of a game's pad forms, as tags (cheaper than an include, which a pad may
need in four forms of one page).

``{% correct_field %}``: inside a form of the pad, on a screen opened to correct a past
entry, the hidden field that makes what the form sends replace that entry
(``actions.form_body`` reads it); nothing otherwise.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def correct_field(context: template.Context) -> SafeString | str:
    correcting = context.get("correcting")
    if correcting is None:
        return ""
    return format_html('<input type="hidden" name="correct" value="{}">', correcting.seq)
