"""The contract every registered score keeper holds, through the core's generic protocol only.

For each keeper of ``all_keepers()`` (ids: the game's key), on the test database: a match made
by the service with as few players as the game takes; its State validates against the
keeper's own schema before and after an action; an action parsed by the core's parser is
stored as its payload and replays to the State it answered; undo gives back the State
byte for byte; folding the log from scratch equals the view the core caches; the table
screen and the set-up page render in English and in French, with none of the keeper's or
the core's sentences left in English on the French pages.

Nothing here knows a game except ``LEGAL_FIRST_ACTION``: one legal first action per game,
taken from that keeper's own tests. A game registered without one fails
``test_every_registered_keeper_has_a_legal_first_action_here`` until it is given one. A
game declared as data needs none: its file's first worked example that is accepted gives
the table (players, options) and the first round.
"""

from __future__ import annotations

import html
import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import polib
import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pydantic import BaseModel

from marquoir.games.declared.gamefile import Words
from marquoir.tables import services
from marquoir.tables.actions import ActionRequest, parse_action
from marquoir.tables.fold import fold_log, log_rows
from marquoir.tables.keepers import ScoreKeeper, all_keepers
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import match_view

pytestmark = pytest.mark.django_db

# One legal first action of a new match with the game's fewest players, per game, each as a
# body of the API contract (the guards left to the core). Taken from each keeper's tests:
LEGAL_FIRST_ACTION: dict[str, dict[str, Any]] = {
    # tests/keepers/pickomino/test_api.py: a take of 27 from the grill with a worm kept.
    "pickomino": {"type": "take", "total": 27, "worm": True, "from": "grill"},
    # tests/keepers/sheet/conftest.py `round_(...)`: one round, one score per player.
    "sheet": {"type": "round", "scores": [12]},
    # tests/keepers/tarot/test_api.py "three-just-made": a garde contre at three players.
    "tarot": {"type": "deal", "taker": 0, "contract": "garde_contre", "bouts": 3, "points": 36},
    # tests/keepers/yahtzee/conftest.py `score(...)`: the first turn scored in Chance.
    "yahtzee": {"type": "score", "box": "chance", "dice": [1, 2, 3, 4, 5]},
}

NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
UNDO = {"type": "undo"}

# French catalogs' sentences worth looking for in a page: long enough not to be a word that
# French shares with English ("Total", "Chance"), and without placeholders, whose rendered
# text is not the msgid's.
SHORTEST_SENTENCE = 12
PLACEHOLDER = re.compile(r"%|\{")

KEYS = sorted(all_keepers())


def keeper(key: str) -> ScoreKeeper:
    return all_keepers()[key]


def declared_example(key: str) -> Any:
    """A declared game's first worked example that is accepted from a fresh table, or None."""
    game = getattr(keeper(key), "game", None)
    if game is None:
        return None
    return next(example for example in game.file.examples if example.refused is None and example.before is None)


def legal_first_action(key: str) -> dict[str, Any]:
    example = declared_example(key)
    if example is not None:
        kind = "turn" if keeper(key).game.by_turns else "round"  # type: ignore[attr-defined]
        return {"type": kind, "inputs": example.rounds[0]}
    assert key in LEGAL_FIRST_ACTION, f"give one legal first action of {key!r} in LEGAL_FIRST_ACTION"
    return LEGAL_FIRST_ACTION[key]


def new_match(key: str) -> tuple[Match, str]:
    """A match of ``key`` with the game's fewest players (a declared game: its example's
    table), made by the service, and its edit token."""
    example = declared_example(key)
    players = list(NAMES[: example.players if example else keeper(key).min_players])
    options = dict(example.options) if example else None
    setup = services.check_new_match(game=key, players=players, options=options)
    assert (setup.game, setup.players, setup.first) == (key, players, 0)
    return services.match_create(game=key, players=players, options=options)


def fresh(row: Match) -> Match:
    """The match row as the database holds it now."""
    return Match.objects.get(pk=row.pk)


def state_now(row: Match) -> dict[str, Any]:
    """The State the core serves for the match as it stands (from its cached fold)."""
    return keeper(row.game).state_json(match_view(fresh(row)))


def state_folded_from_scratch(row: Match) -> dict[str, Any]:
    """The State of the match's whole log folded again, with no cache in the way."""
    stored = fresh(row)
    return keeper(row.game).state_json(fold_log(stored, log_rows(stored), keeper(row.game)))


def applied(row: Match, request: ActionRequest) -> dict[str, Any]:
    """``request`` written by the one write path, which must apply it: the State answered."""
    outcome = services.match_act(match_id=row.id, request=request).or_raise()
    assert outcome.applied
    assert outcome.state is not None
    return outcome.state


def act(row: Match, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` parsed by the core's parser, then applied: the State answered."""
    return applied(row, parse_action(body, keeper(row.game)))


def as_bytes(state: dict[str, Any]) -> bytes:
    """The State as the API sends it, key order included, without its ``seq`` (which an
    undo moves on: it counts entries, not the match's position)."""
    return json.dumps({name: value for name, value in state.items() if name != "seq"}).encode()


def assert_fits_its_schema(key: str, state: dict[str, Any]) -> None:
    """The State parses with the keeper's schema, and the schema gives back that very State:
    no field the schema leaves out, none it adds, no value it has to coerce."""
    schema = keeper(key).state_schema
    parsed = schema.model_validate(state)
    assert parsed.model_dump(mode="json", by_alias=True) == state


def test_every_registered_keeper_has_a_legal_first_action_here() -> None:
    assert KEYS, "no keeper registered"
    missing = {key for key in KEYS if declared_example(key) is None} - set(LEGAL_FIRST_ACTION)
    assert not missing, f"add one legal first action of {sorted(missing)} to LEGAL_FIRST_ACTION"


@pytest.mark.parametrize("key", KEYS)
def test_the_state_fits_the_keeper_s_schema_before_and_after_an_action(key: str) -> None:
    row, _token = new_match(key)
    before = state_now(row)
    assert (before["game"], before["seq"]) == (key, 0)
    assert_fits_its_schema(key, before)

    after = act(row, legal_first_action(key))

    assert after["seq"] == 1
    assert after != before
    assert_fits_its_schema(key, after)
    assert_fits_its_schema(key, act(row, UNDO))


@pytest.mark.parametrize("key", KEYS)
def test_an_action_is_stored_as_its_parsed_payload_and_replays_to_the_state_it_answered(key: str) -> None:
    row, _token = new_match(key)
    request = parse_action(legal_first_action(key), keeper(key))
    assert request.kind == legal_first_action(key)["type"]

    answered = applied(row, request)

    [entry] = LogEntry.objects.filter(match_id=row.id)
    assert entry.payload == request.payload  # as the database gives it back, JSON and all
    assert state_folded_from_scratch(row) == answered
    assert state_now(row) == answered


@pytest.mark.parametrize("key", KEYS)
def test_undo_gives_back_the_state_byte_for_byte(key: str) -> None:
    row, _token = new_match(key)
    before = state_now(row)
    act(row, legal_first_action(key))

    undone = act(row, UNDO)

    assert undone["seq"] == 2
    assert as_bytes(undone) == as_bytes(before)
    assert as_bytes(state_now(row)) == as_bytes(before)


@pytest.mark.parametrize("key", KEYS)
def test_folding_the_log_from_scratch_equals_the_view_the_core_keeps(key: str) -> None:
    row, _token = new_match(key)
    assert state_folded_from_scratch(row) == state_now(row)
    for body in (legal_first_action(key), UNDO, legal_first_action(key)):
        answered = act(row, body)
        assert state_folded_from_scratch(row) == state_now(row) == answered
    assert fresh(row).seq == 3


# The pages, in both languages.


@cache
def sentences(catalog: Path) -> tuple[tuple[str, str], ...]:
    """(English, French) of each sentence worth checking in a French catalog, where the
    French differs from the English."""
    found: list[tuple[str, str]] = []
    for entry in polib.pofile(str(catalog)):
        if entry.obsolete or entry.fuzzy:
            continue
        pairs = [(entry.msgid, entry.msgstr)]
        if entry.msgid_plural:  # French's forms: 0 the singular, 1 the plural
            forms = entry.msgstr_plural
            pairs = [(entry.msgid, forms.get(0, "")), (entry.msgid_plural, forms.get(1, ""))]
        for english, french in pairs:
            if len(english) >= SHORTEST_SENTENCE and not PLACEHOLDER.search(english) and french != english:
                found.append((english, french))
    return tuple(found)


def keeper_app(key: str) -> str:
    """The Django app holding ``key``'s keeper (its catalog is in the app's ``locale``): the
    app whose ``keeper`` module holds it (marquoir.registry's rule), else the app its class
    is defined in."""
    defined = keeper(key)
    holding = [
        config.name
        for config in apps.get_app_configs()
        if getattr(sys.modules.get(f"{config.name}.keeper"), "KEEPER", None) is defined
    ]
    if not holding:
        containing = apps.get_containing_app_config(type(defined).__module__)
        holding = [containing.name] if containing is not None else []
    assert len(holding) == 1, f"no single app holds the keeper of {key!r}: {holding}"
    return holding[0]


def catalog_of(app_name: str) -> Path:
    path = Path(next(config.path for config in apps.get_app_configs() if config.name == app_name))
    catalog = path / "locale" / "fr" / "LC_MESSAGES" / "django.po"
    assert catalog.is_file(), catalog
    return catalog


def address(name: str, language: str, **kwargs: str) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def page_language(text: str) -> str | None:
    found = re.search(r"<html[^>]*\blang=\"([^\"]+)\"", text)
    return found.group(1) if found else None


def file_words(key: str) -> tuple[tuple[str, str], ...]:
    """(English, French) of each text a declared game's file gives in both languages, as
    ``sentences`` picks them (none for a game that is not declared)."""
    game = getattr(keeper(key), "game", None)
    if game is None:
        return ()
    found: list[tuple[str, str]] = []

    def walk(value: Any) -> None:
        if isinstance(value, Words):
            if value.en != value.fr and len(value.en) >= SHORTEST_SENTENCE and not PLACEHOLDER.search(value.en):
                found.append((value.en, value.fr))
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(getattr(value, name))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(game.file)
    return tuple(found)


def assert_nothing_left_in_english(key: str, french_page: str, english_page: str, *, expect_own: bool = True) -> None:
    """No catalog sentence of the core or of ``key``'s keeper (or text of its game file) is
    in the French page as English text; and the French page shows some of the keeper's own
    French where the English page shows its English (so the check looked at words the
    keeper drew)."""
    text, english_text = html.unescape(french_page), html.unescape(english_page)
    own = sentences(catalog_of(keeper_app(key))) + file_words(key)
    left = sorted({english for english, _french in own + sentences(catalog_of("marquoir.tables")) if english in text})
    assert not left, f"left in English on the French page of {key}: {left}"
    shown = [english for english, french in own if french and french in text and english in english_text]
    assert shown or not expect_own, f"none of the keeper's own French is on the French page of {key}"


@pytest.mark.parametrize("key", KEYS)
def test_the_table_screen_renders_in_english_and_french_with_nothing_left_in_english(key: str) -> None:
    row, token = new_match(key)
    act(row, legal_first_action(key))  # something in the log, and a band that has moved on
    phone = Client()  # a phone keeping score: the pad is drawn too, not only the board
    joined = phone.post(address("tables:join", "en", match_id=row.id), {"key": token})
    assert joined.status_code == 303

    english = page(phone, address("tables:table", "en", match_id=row.id))
    french = page(phone, address("tables:table", "fr", match_id=row.id))

    assert page_language(english) == "en"
    assert page_language(french) == "fr"
    assert 'name="action_id"' in french  # drawn for a phone that may act
    assert_nothing_left_in_english(key, french, english)


@pytest.mark.parametrize("key", KEYS)
def test_the_set_up_page_renders_in_english_and_french_with_nothing_left_in_english(key: str) -> None:
    client = Client()
    english = page(client, address("tables:new", "en", game=key))
    french = page(client, address("tables:new", "fr", game=key))

    assert page_language(english) == "en"
    assert page_language(french) == "fr"
    assert french != english
    # A declared game without options draws nothing of its own on the set-up page.
    declared_without_options = bool(file_words(key) or declared_example(key)) and not keeper(key).options_form_fields()
    assert_nothing_left_in_english(key, french, english, expect_own=not declared_without_options)
