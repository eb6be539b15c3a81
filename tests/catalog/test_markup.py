"""Content Markdown becomes HTML with every raw HTML tag escaped."""

from __future__ import annotations

from django.template import Context, Template

from marquoir.catalog.markup import render_inline, render_markdown


def test_a_script_tag_in_content_comes_out_escaped():
    html = render_markdown('Hello <script>alert("x")</script>')
    assert "<script" not in html
    assert "&lt;script&gt;" in html


def test_an_event_handler_in_content_comes_out_escaped():
    html = render_markdown('<img src=x onerror="alert(1)">')
    assert "<img" not in html
    assert "&lt;img" in html


def test_a_javascript_link_is_not_made_a_link():
    assert "href" not in render_markdown("[worms](javascript:alert(1))")


def test_markdown_becomes_html_blocks():
    assert render_markdown("- **one**\n- two") == "<ul>\n<li><strong>one</strong></li>\n<li>two</li>\n</ul>\n"


def test_an_inline_line_has_no_paragraph_around_it():
    assert render_inline("Can I *stop*?") == "Can I <em>stop</em>?"


def test_the_template_filters_escape_too():
    rendered = Template("{% load catalog_markup %}{{ text|markdown }}|{{ text|markdown_inline }}").render(
        Context({"text": "<b>bold</b>"})
    )
    assert rendered == "<p>&lt;b&gt;bold&lt;/b&gt;</p>\n|&lt;b&gt;bold&lt;/b&gt;"
