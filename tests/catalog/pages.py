"""A small reader for the HTML of a page, so tests can ask for elements instead of substrings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)


@dataclass
class Element:
    """One element of the page: its tag, attributes, text inside, and position in the page."""

    tag: str
    attrs: dict[str, str]
    position: int
    end: int = -1
    text_parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        # Only ASCII whitespace collapses: French typography's no-break spaces are kept.
        return re.sub(r"[ \t\n\r\f]+", " ", "".join(self.text_parts)).strip()

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, len(self.elements))
        self.elements.append(element)
        if tag in _VOID:
            element.end = element.position + 1
        else:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        position = len(self.elements)
        self.elements.append(Element(tag, {name: value or "" for name, value in attrs}, position, position + 1))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                for element in self._open[index:]:
                    element.end = len(self.elements)
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text_parts.append(data)


class Page:
    """The elements of an HTML document, in document order."""

    def __init__(self, html: str) -> None:
        reader = _Reader()
        reader.feed(html)
        reader.close()
        self.html = html
        self.elements = reader.elements

    def all(self, tag: str | None = None, *, cls: str | None = None, **attrs: str) -> list[Element]:
        """Elements with ``tag`` (any if None), carrying class ``cls`` and the given attributes."""
        return [
            element
            for element in self.elements
            if (tag is None or element.tag == tag)
            and (cls is None or cls in element.classes)
            and all(element.attrs.get(name.replace("_", "-")) == value for name, value in attrs.items())
        ]

    def one(self, tag: str | None = None, *, cls: str | None = None, **attrs: str) -> Element:
        """The single element matching; fails the test if there are none or several."""
        found = self.all(tag, cls=cls, **attrs)
        assert len(found) == 1, f"expected one {tag or ''}.{cls or ''}{attrs}, found {len(found)}"
        return found[0]

    def within(self, container: Element) -> Page:
        """The elements inside ``container``."""
        assert container.end > container.position, f"<{container.tag}> is never closed"
        page = Page.__new__(Page)
        page.html = self.html
        page.elements = self.elements[container.position + 1 : container.end]
        return page

    def headings(self) -> list[tuple[int, str]]:
        """Each heading's level and text, in order."""
        return [(int(element.tag[1]), element.text) for element in self.elements if element.tag in _HEADINGS]


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
