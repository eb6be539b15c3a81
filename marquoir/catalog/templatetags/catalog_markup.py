"""Template filters for content Markdown: ``{{ text|markdown }}`` and ``{{ text|markdown_inline }}``."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from ..markup import render_inline, render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown(text: str) -> SafeString:
    """Markdown blocks to HTML; raw HTML in ``text`` is escaped."""
    return render_markdown(str(text))


@register.filter(name="markdown_inline")
def markdown_inline(text: str) -> SafeString:
    """One line of Markdown to inline HTML; raw HTML in ``text`` is escaped."""
    return render_inline(str(text))
