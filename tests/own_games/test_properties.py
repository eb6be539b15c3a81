"""Properties of the editor: whatever is typed into its fields, the form either gives a game
file or says which field is wrong (never another failure); and any game it accepts keeps the
invariants of every declared game (totals the sum of the rounds, replay and undo exact, the
end when the file says), played by random rounds."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marquoir.games.declared import GameFileError
from marquoir.own_games import editor, files
from tests.declared.test_properties import check_match, played
from tests.volume import PROPERTY_VOLUME

KINDS = ("points", "count", "flag", "player")


def form(inputs: list[tuple[str, str, str]], formula: str, **values: str) -> dict[str, str]:
    """The editor's form: ``inputs`` as (label, kind, per), one formula, ``values`` over the rest."""
    data = {"name_en": "Random", "min_players": "2", "max_players": "5", "winner": "highest", "end_table": "on"}
    data.update({"inputs": str(len(inputs)), "points": "1", "checks": "0", "tiebreaks": "0"})
    for index, (label, kind, per) in enumerate(inputs):
        data.update({f"input-{index}-label_en": label, f"input-{index}-kind": kind, f"input-{index}-per": per})
        if kind == "count":
            data.update({f"input-{index}-min": "0", f"input-{index}-max": "20"})
        elif kind == "points":
            data.update({f"input-{index}-min": "-50", f"input-{index}-max": "50"})
    data["point-0-formula"] = formula
    data.update(values)
    return data


def file_or_fault(data: dict[str, str]) -> dict[str, Any] | None:
    """The file the form gives, or None when it says what is wrong (a fault on a field)."""
    draft = editor.draft_from_form(editor.blank_file(), data)
    built = editor.file_from_draft(draft)
    if draft.errors:
        assert all(isinstance(message, str) and message for message in draft.errors.values())
        return None
    try:
        files.compile_file(built)
    except GameFileError as error:
        fault = error
    else:
        return built
    assert fault.code, fault  # a fault the pages word (messages.problem_text)
    return None


FIELD_TEXT = st.text(max_size=80) | st.sampled_from(
    ["", "0", "-1", "999999999999", "points", "1 +", "a.b(", "\u0000", "é"]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(form([("Points", "points", "player")], "points"))), FIELD_TEXT))
def test_anything_typed_into_the_form_gives_a_file_or_names_the_field_at_fault(typed: dict[str, str]):
    file_or_fault({**form([("Points", "points", "player")], "points"), **typed})


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A game as the editor makes one: 1 to 4 inputs, a formula reading them with a
    condition, an end, who wins, maybe a tie-break."""
    count = draw(st.integers(1, 4))
    inputs = []
    for index in range(count):
        kind = draw(st.sampled_from(KINDS))
        per = "round" if kind == "player" else draw(st.sampled_from(["player", "round"]))
        inputs.append((f"Input {index}", kind, per))
    keys = [f"input_{index}" for index in range(count)]
    numbers = [key for key, (_label, kind, _per) in zip(keys, inputs, strict=True) if kind in ("points", "count")]
    flags = [key for key, (_label, kind, _per) in zip(keys, inputs, strict=True) if kind == "flag"]
    players = [key for key, (_label, kind, _per) in zip(keys, inputs, strict=True) if kind == "player"]
    term = " + ".join(numbers) if numbers else "1"
    condition = draw(
        st.sampled_from([*(f"{flag}" for flag in flags), *(f"seat == {who}" for who in players), "round > 1"])
    )
    formula = f"{condition} ? 2 * ({term}) : {term}"
    end = draw(st.sampled_from([{"end_rounds": "3", "end_table": ""}, {"end_target": "40", "end_table": ""}, {}]))
    values = {"winner": draw(st.sampled_from(["highest", "lowest"])), **end}
    for index in range(count):
        values[f"input-{index}-key"] = keys[index]
    if draw(st.booleans()) and numbers:
        values.update({"tiebreaks": "1", "tiebreak-0-label_en": "Last", "tiebreak-0-value": numbers[0]})
    built = file_or_fault(form(inputs, formula, **values))
    assert built is not None, (inputs, formula, values)
    return built


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_game_the_editor_accepts_keeps_the_invariants_of_a_declared_game(data: st.DataObject):
    game = files.compile_file(data.draw(games()))
    match, accepted, _refused = data.draw(played(game))
    check_match(game, match, accepted)
    PROPERTY_VOLUME.games += 1
    PROPERTY_VOLUME.actions += len(accepted)
