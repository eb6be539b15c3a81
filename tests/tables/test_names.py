"""Names that look alike or look blank are refused; the names real tables type still pass."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from marquoir.tables.names import MAX_MARKS_ON_A_LETTER, clean_names, name_key, readable
from marquoir.tables.outcome import ServiceError


def refusal(names: list[str]) -> tuple[str, dict[str, object]]:
    with pytest.raises(ServiceError) as refused:
        clean_names(names, least=1, most=20)
    return refused.value.reason, refused.value.params


@pytest.mark.parametrize(
    ("other", "why"),
    [
        ("Ada\u200d", "a zero-width joiner at the end"),
        ("\u0410da", "a Cyrillic А"),
        ("\uff21da", "a fullwidth Ａ"),
        ("ADA", "another case"),
        ("A\u200cda", "a zero-width non-joiner inside"),
        ("\U0001d400da", "a mathematical bold A"),
    ],
)
def test_a_name_that_looks_like_another_is_refused(other: str, why: str) -> None:
    reason, params = refusal(["Ada", other])

    assert reason in {"name_lookalike", "name_twice"}, why
    assert params["name"] == other


def test_the_refusal_names_both_players() -> None:
    reason, params = refusal(["Ben", "\u0412en"])  # a Cyrillic В

    assert (reason, params["name"], params["other"]) == ("name_lookalike", "\u0412en", "Ben")


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u3164\u3164", "\u115f\u1160", "\uffa0", " \u2800 "])
def test_a_name_that_looks_blank_is_refused(blank: str) -> None:
    assert refusal([blank])[0] in {"name_invisible", "name_empty"}


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_or_paragraph_separator_in_a_name_is_refused(separator: str) -> None:
    assert refusal([f"Ada{separator}Ben"])[0] == "name_characters"


def test_a_letter_under_39_combining_marks_is_refused() -> None:
    zalgo = "A" + "\u0301" * 39

    reason, params = refusal([zalgo])

    assert (reason, params["limit"]) == ("name_marks", MAX_MARKS_ON_A_LETTER)


@pytest.mark.parametrize(
    "names",
    [
        ["Ada", "Adam", "Ali", "Al"],
        ["Zoë", "Zoe"],  # an accent is a letter of its own
        ["Nguyễn", "Đức"],
        ["Chloé", "Chloë", "Chloe"],
        ["\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"],  # Persian with its non-joiner
        ["\U0001f469\u200d\U0001f469\u200d\U0001f467", "\U0001f3b2"],  # a family emoji, a die
        ["\u0e19\u0e49\u0e33", "\u0928\u092e\u0938\u094d\u0924\u0947"],  # Thai, Devanagari
        ["さくら", "김민준", "Анна", "Ελένη"],
        ["Ben 2", "Ben 3"],
    ],
)
def test_the_names_real_tables_type_are_taken(names: list[str]) -> None:
    assert clean_names(names, least=1, most=20) == names


@given(st.text(max_size=45))
def test_any_text_as_a_name_is_taken_or_refused_with_a_reason(text: str) -> None:
    cleaned: str | None = None
    code: str | None = None
    try:
        [cleaned] = clean_names([text], least=1, most=1)
    except ServiceError as refused:
        code = refused.code
    if cleaned is None:
        assert code == "invalid"
    else:
        assert readable(cleaned)
        assert name_key(cleaned)  # something to tell it from others by


@given(st.text(min_size=1, max_size=20))
def test_a_name_and_its_fullwidth_or_upper_case_twin_share_a_key(text: str) -> None:
    fullwidth = "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)

    assert name_key(fullwidth) == name_key(text)
    assert name_key(text.upper().lower()) == name_key(text.lower())
