"""Content Markdown to HTML, in one place: raw HTML in content is escaped, never passed on."""

from __future__ import annotations

from functools import lru_cache

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

# CommonMark, with GFM tables (a deal table, the bullheads), and raw HTML off: a "<script>"
# written in content comes out as text, and markdown-it's link check refuses javascript:
# and similar addresses.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


@lru_cache(maxsize=512)
def render_markdown(text: str) -> SafeString:
    """``text`` (Markdown blocks) as HTML, safe to put in a page."""
    return mark_safe(str(_MARKDOWN.render(text)))  # noqa: S308 -- markdown-it escaped every raw HTML


@lru_cache(maxsize=512)
def render_inline(text: str) -> SafeString:
    """``text`` (one line of Markdown, such as a question) as inline HTML, safe to put in a page."""
    return mark_safe(str(_MARKDOWN.renderInline(text)))  # noqa: S308 -- markdown-it escaped every raw HTML
