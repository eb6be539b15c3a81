"""The content loader splits a game's Markdown file into front matter, six sections and a FAQ."""

from __future__ import annotations

from pathlib import Path

import pytest

from marquoir.games.content import SECTION_KEYS, ContentError, GameContent, load_content, parse_content

VALID_FRONT = """+++
title = "T"
pitch = "P"
note = "N"
mechanics = ["m"]
contents = "C"
age = "8+"
faces_note = "F"
+++
"""
SIX_SECTIONS = "\n".join(f"## Section {n}\n\nText {n}.\n" for n in range(1, 6)) + "\n## FAQ\n\n### Q?\n\nA.\n"


def test_it_reads_every_front_matter_field(demo_content: GameContent):
    assert demo_content.title == "Demo"
    assert demo_content.pitch == "A game made up for the tests."
    assert demo_content.reviewed == "Checked against the official rules · January 2026"
    assert demo_content.note == "You need the box."
    assert demo_content.mechanics == ("dice rolling", "stealing")
    assert demo_content.contents == "Two dice."
    assert demo_content.age == "8 and up"
    assert demo_content.faces_note == "The worm counts 5."


def test_the_review_stamp_is_none_when_not_set(fixture_games_dir: Path):
    assert load_content("demo", "fr", fixture_games_dir).reviewed is None


def test_the_six_sections_are_keyed_by_position_with_the_file_s_own_headings(fixture_games_dir: Path):
    french = load_content("demo", "fr", fixture_games_dir)
    assert [section.key for section in french.sections] == list(SECTION_KEYS)
    assert [section.title for section in french.sections] == [
        "Mise en place",
        "Déroulement",
        "Décompte",
        "Fin de partie",
        "Variantes",
        "Questions fréquentes",
    ]
    assert french.section("setup").markdown == "Posez les **dés** sur la table."


def test_each_faq_heading_is_a_question_followed_by_its_answer(demo_content: GameContent):
    assert [entry.question for entry in demo_content.faq] == ["Can I <b>cheat</b>?", "Can I stop?"]
    assert demo_content.faq[1].answer == "Yes, but it is a bust:\n\n- no tile;\n- you give one back."


def test_the_faq_section_keeps_only_its_text_before_the_first_question(demo_content: GameContent):
    assert demo_content.section("faq").markdown == "Questions players ask."


def test_a_heading_inside_a_code_block_is_not_a_section(demo_content: GameContent):
    assert "## not a section, only an example" in demo_content.section("play").markdown


def test_content_is_read_once_then_cached(fixture_games_dir: Path):
    assert load_content("demo", "en", fixture_games_dir) is load_content("demo", "en", fixture_games_dir)


def test_a_missing_language_file_raises_file_not_found(fixture_games_dir: Path):
    with pytest.raises(FileNotFoundError):
        load_content("demo", "de", fixture_games_dir)


def test_a_well_formed_file_parses():
    content = parse_content(VALID_FRONT + "\n" + SIX_SECTIONS)
    assert len(content.sections) == 6
    assert content.faq[0].question == "Q?"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (SIX_SECTIONS, "must start with"),
        (VALID_FRONT.removesuffix("+++\n") + SIX_SECTIONS, "not closed"),
        (VALID_FRONT.replace('age = "8+"', "age = 8+"), "not valid TOML"),
        (
            VALID_FRONT.replace('age = "8+"', 'age = "8+"\ncolour = "red"') + SIX_SECTIONS,
            "unknown front matter keys: colour",
        ),
        (VALID_FRONT.replace('pitch = "P"\n', "") + SIX_SECTIONS, "missing front matter keys: pitch"),
        (VALID_FRONT.replace('age = "8+"', "age = 8") + SIX_SECTIONS, "'age' must be a non-empty string"),
        (VALID_FRONT.replace('mechanics = ["m"]', 'mechanics = "m"') + SIX_SECTIONS, "'mechanics' must be"),
        (VALID_FRONT + SIX_SECTIONS.replace("## Section 5\n", ""), "found 5"),
        (VALID_FRONT + SIX_SECTIONS + "\n## Extra\n", "found 7"),
        (VALID_FRONT + "Intro.\n\n" + SIX_SECTIONS, "text before the first"),
        (VALID_FRONT + SIX_SECTIONS + "\n### Unanswered?\n", "needs a heading and an answer"),
    ],
    ids=[
        "no-front-matter",
        "unclosed-front-matter",
        "bad-toml",
        "unknown-key",
        "missing-key",
        "text-not-a-string",
        "mechanics-not-an-array",
        "five-sections",
        "seven-sections",
        "text-before-sections",
        "question-without-answer",
    ],
)
def test_a_malformed_file_is_refused_with_the_reason(text: str, reason: str):
    with pytest.raises(ContentError, match=reason):
        parse_content(text, source="bad.md")
