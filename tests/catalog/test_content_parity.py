"""Every registered game's real content is written in both languages with the same shape."""

from __future__ import annotations

import tomllib

import pytest
from django.conf import settings

from marquoir.catalog.games import GAMES
from marquoir.games.content import GAMES_DIR, SECTION_KEYS, content_path, load_content

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def front_matter_keys(slug: str, language: str) -> set[str]:
    lines = content_path(slug, language).read_text(encoding="utf-8").splitlines()
    return set(tomllib.loads("\n".join(lines[1 : lines.index("+++", 1)])))


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_content_file_exists_and_follows_the_format(slug: str, language: str):
    content = load_content(slug, language, GAMES_DIR)
    assert [section.key for section in content.sections] == list(SECTION_KEYS)
    assert content.faq, "the FAQ has at least one question"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_english_and_french_have_the_same_front_matter_keys(slug: str):
    assert front_matter_keys(slug, "en") == front_matter_keys(slug, "fr")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_english_and_french_have_six_sections_and_as_many_questions(slug: str):
    english, french = load_content(slug, "en"), load_content(slug, "fr")
    assert len(english.sections) == len(french.sections) == len(SECTION_KEYS)
    assert len(english.faq) == len(french.faq)
    assert len(english.mechanics) == len(french.mechanics)
