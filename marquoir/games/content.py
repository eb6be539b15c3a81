"""A game's rules summary in one language, read from ``<slug>/content/<lang>.md`` (no Django).

A content file is TOML front matter between two lines that read exactly ``+++``, then a
Markdown body of exactly six ``## `` sections, always in the same order and recognised by
position (their headings are written in the file's own language): setup, play, scoring,
end, variants, faq. In the faq section every ``### `` heading is a question and the text
under it, up to the next question, is its answer.

The loader only splits and checks the file; turning Markdown into HTML is the web layer's
job, so that escaping is decided in one place.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent
"""Where game packages live: ``GAMES_DIR / <slug> / "content" / "<lang>.md"``."""

FRONT_MATTER_FENCE = "+++"
SECTION_KEYS: tuple[str, ...] = ("setup", "play", "scoring", "end", "variants", "faq")
"""The six sections of every rules summary, in the order they appear."""

_REQUIRED_TEXT_KEYS = ("title", "pitch", "note", "contents", "age", "faces_note")
# ``origin``: a traditional game's facts in place of a box's (when and where it is played,
# whose rules are kept), instead of a release year, a publisher and an original name.
# ``time``: how long it plays when that is not one number of minutes for a game (Tarot's
# "about 10 minutes a deal").
_OPTIONAL_TEXT_KEYS = ("reviewed", "origin", "time")
_LIST_KEYS = ("mechanics",)
FRONT_MATTER_KEYS: frozenset[str] = frozenset(_REQUIRED_TEXT_KEYS + _OPTIONAL_TEXT_KEYS + _LIST_KEYS)
"""Every key the front matter may hold; all but ``reviewed``, ``origin`` and ``time`` are required."""

_SECTION_PREFIX = "## "
_QUESTION_PREFIX = "### "
_CODE_FENCES = ("```", "~~~")


class ContentError(ValueError):
    """A content file does not follow the format; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Section:
    """One of the six sections: its fixed key, its heading as written, its Markdown body.

    For the faq section the body is only the text before the first question (often empty);
    the questions themselves are in :attr:`GameContent.faq`.
    """

    key: str
    title: str
    markdown: str


@dataclass(frozen=True, slots=True)
class FaqEntry:
    """A frequently asked question (one line of Markdown) and its answer (Markdown)."""

    question: str
    answer: str


@dataclass(frozen=True, slots=True)
class GameContent:
    """Everything a game's page says in one language."""

    title: str
    pitch: str
    note: str
    mechanics: tuple[str, ...]
    contents: str
    age: str
    faces_note: str
    sections: tuple[Section, ...]
    faq: tuple[FaqEntry, ...]
    reviewed: str | None = None
    origin: str | None = None
    time: str | None = None

    def section(self, key: str) -> Section:
        """The section with ``key`` (one of :data:`SECTION_KEYS`)."""
        for section in self.sections:
            if section.key == key:
                return section
        raise KeyError(key)


def content_path(slug: str, language: str, base_dir: Path = GAMES_DIR) -> Path:
    """Where the content of game ``slug`` in ``language`` is stored under ``base_dir``."""
    return base_dir / slug / "content" / f"{language}.md"


# Every page on disk, kept: a fixed set (each game's two languages, 80 for forty games). A bound
# under it would be worse than none: the home page reads them all in turn, so an LRU of 64
# evicted each page just before it was read again (a home page of forty games took 36 ms, 13 ms
# with every page kept: make bench, "Home page and its search").
@cache
def load_content(slug: str, language: str, base_dir: Path = GAMES_DIR) -> GameContent:
    """The parsed content of game ``slug`` in ``language``, read once and then cached.

    Raises ``FileNotFoundError`` when there is no such file and :class:`ContentError` when
    the file does not follow the format.
    """
    path = content_path(slug, language, base_dir)
    return parse_content(path.read_text(encoding="utf-8"), source=str(path))


def parse_content(text: str, *, source: str = "<content>") -> GameContent:
    """Split a content file's ``text`` into its front matter, sections and FAQ, checking each.

    ``source`` names the file in error messages.
    """
    front, body = _split_front_matter(text, source)
    texts, mechanics = _check_front_matter(front, source)
    sections = _split_sections(body, source)
    faq_section = sections[-1]
    intro, faq = _split_faq(faq_section.markdown, source)
    sections[-1] = Section(faq_section.key, faq_section.title, intro)
    return GameContent(
        title=texts["title"],
        pitch=texts["pitch"],
        note=texts["note"],
        mechanics=mechanics,
        contents=texts["contents"],
        age=texts["age"],
        faces_note=texts["faces_note"],
        sections=tuple(sections),
        faq=faq,
        reviewed=texts.get("reviewed"),
        origin=texts.get("origin"),
        time=texts.get("time"),
    )


def _split_front_matter(text: str, source: str) -> tuple[str, str]:
    lines = text.splitlines()
    if not lines or lines[0] != FRONT_MATTER_FENCE:
        raise ContentError(f"{source}: the file must start with a line reading exactly {FRONT_MATTER_FENCE}")
    try:
        end = lines.index(FRONT_MATTER_FENCE, 1)
    except ValueError:
        raise ContentError(f"{source}: the front matter is not closed by a {FRONT_MATTER_FENCE} line") from None
    return "\n".join(lines[1:end]), "\n".join(lines[end + 1 :])


def _check_front_matter(front: str, source: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """The front matter's texts by key, and its mechanics; every key known, typed and set."""
    try:
        data = tomllib.loads(front)
    except tomllib.TOMLDecodeError as error:
        raise ContentError(f"{source}: the front matter is not valid TOML: {error}") from error
    unknown = sorted(set(data) - FRONT_MATTER_KEYS)
    if unknown:
        raise ContentError(f"{source}: unknown front matter keys: {', '.join(unknown)}")
    missing = [key for key in _REQUIRED_TEXT_KEYS + _LIST_KEYS if key not in data]
    if missing:
        raise ContentError(f"{source}: missing front matter keys: {', '.join(missing)}")
    texts: dict[str, str] = {}
    for key in _REQUIRED_TEXT_KEYS + _OPTIONAL_TEXT_KEYS:
        if key not in data:
            continue
        value = data[key]
        if not isinstance(value, str) or not value.strip():
            raise ContentError(f"{source}: front matter key {key!r} must be a non-empty string")
        texts[key] = value.strip()
    mechanics = data["mechanics"]
    if not isinstance(mechanics, list) or not mechanics or not all(isinstance(m, str) and m for m in mechanics):
        raise ContentError(f"{source}: front matter key 'mechanics' must be a non-empty array of strings")
    return texts, tuple(mechanics)


def _split_sections(body: str, source: str) -> list[Section]:
    """The body cut at each ``## `` heading outside code blocks; exactly six, nothing before."""
    preamble: list[str] = []
    titles: list[str] = []
    bodies: list[list[str]] = []
    for line, in_code in _lines_with_code_state(body):
        if not in_code and line.startswith(_SECTION_PREFIX):
            titles.append(line[len(_SECTION_PREFIX) :].strip())
            bodies.append([])
        elif bodies:
            bodies[-1].append(line)
        else:
            preamble.append(line)
    if any(line.strip() for line in preamble):
        raise ContentError(f"{source}: text before the first '## ' section heading")
    if len(titles) != len(SECTION_KEYS):
        raise ContentError(
            f"{source}: expected {len(SECTION_KEYS)} '## ' sections ({', '.join(SECTION_KEYS)}), found {len(titles)}"
        )
    if not all(titles):
        raise ContentError(f"{source}: a '## ' section heading is empty")
    return [
        Section(key, title, "\n".join(lines).strip())
        for key, title, lines in zip(SECTION_KEYS, titles, bodies, strict=True)
    ]


def _split_faq(markdown: str, source: str) -> tuple[str, tuple[FaqEntry, ...]]:
    """The faq section's text before the first question, and each question with its answer."""
    intro: list[str] = []
    questions: list[str] = []
    answers: list[list[str]] = []
    for line, in_code in _lines_with_code_state(markdown):
        if not in_code and line.startswith(_QUESTION_PREFIX):
            questions.append(line[len(_QUESTION_PREFIX) :].strip())
            answers.append([])
        elif answers:
            answers[-1].append(line)
        else:
            intro.append(line)
    entries = tuple(
        FaqEntry(question, "\n".join(lines).strip()) for question, lines in zip(questions, answers, strict=True)
    )
    for entry in entries:
        if not entry.question or not entry.answer:
            raise ContentError(f"{source}: every FAQ question needs a heading and an answer")
    return "\n".join(intro).strip(), entries


def _lines_with_code_state(text: str) -> list[tuple[str, bool]]:
    """Each line of ``text`` with whether it is inside (or opens/closes) a fenced code block.

    A ``## `` inside a code block is an example, not a heading.
    """
    result: list[tuple[str, bool]] = []
    fence: str | None = None
    for line in text.splitlines():
        stripped = line.lstrip()
        marker = next((mark for mark in _CODE_FENCES if stripped.startswith(mark)), None)
        if fence is None and marker is not None:
            fence = marker
            result.append((line, True))
        elif fence is not None:
            result.append((line, True))
            if stripped.startswith(fence) and not stripped[len(fence) :].strip("`~ "):
                fence = None
        else:
            result.append((line, False))
    return result
