"""A form on a page, read as a browser would send it: what the editor's tests post back."""

from __future__ import annotations

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str | None, form_class: str | None) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id, self.form_class = form_id, form_class
        self.inside = False
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form" and (
            (self.form_id is not None and found.get("id") == self.form_id)
            or (self.form_class is not None and self.form_class in found.get("class", "").split())
        ):
            self.inside = True
        if not self.inside:
            return
        name = found.get("name")
        if tag == "input" and name:
            kind = found.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in found:
                    self.fields[name] = found.get("value", "on")
            elif kind not in ("submit", "button", "file"):
                self.fields[name] = found.get("value", "")
        elif tag == "select" and name:
            self._select, self._select_first, self._select_chosen = name, None, False
        elif tag == "option" and self._select is not None:
            value = found.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in found:
                self.fields[self._select] = value
                self._select_chosen = True
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select is not None:
            if not self._select_chosen and self._select_first is not None:
                self.fields[self._select] = self._select_first
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields[self._textarea] = "".join(self._text).removeprefix("\n")
            self._textarea = None


def form_fields(page: str, form_id: str | None = "editor", *, form_class: str | None = None) -> dict[str, str]:
    """The fields of the form ``form_id`` (or the first of class ``form_class``) of ``page``
    as they would be posted (no button)."""
    reader = _FormReader(form_id if form_class is None else None, form_class)
    reader.feed(page)
    return reader.fields
