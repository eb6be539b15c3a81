"""Issue 18, bounded growth: a log entry stores its action, not the whole State it
answered; a retried action_id still gets the very same answer (folded again); a match's
log has a bound; the table page shows only the last entries."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.api_bodies import BODIES
from marquoir.games.pickomino import playout as pickomino_playout
from marquoir.games.sheet import playout as sheet_playout
from marquoir.games.tarot import playout as tarot_playout
from marquoir.games.yahtzee import playout as yahtzee_playout
from marquoir.tables import services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.log_words import LOG_SHOWN
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import fold_cache, match_view

from ..volume import PROPERTY_VOLUME
from .conftest import Api, Created, error_of

pytestmark = pytest.mark.django_db


Chooser = Callable[[Sequence[Any]], Any]
# game -> (player counts, a random legal action of the engine's state, its API body)
GAMES: dict[str, tuple[range, Callable[[Any, Chooser], Any], Callable[[Any], dict[str, Any]]]] = {
    "pickomino": (range(2, 8), pickomino_playout.random_legal_action, BODIES["pickomino"]),
    "sheet": (range(1, 21), sheet_playout.random_legal_action, BODIES["sheet"]),
    "tarot": (range(3, 6), tarot_playout.random_legal_action, BODIES["tarot"]),
    "yahtzee": (range(1, 9), yahtzee_playout.random_legal_action, BODIES["yahtzee"]),
}


def new_match(api: Api, game: str, players: int) -> Created:
    names = [f"P{seat}" for seat in range(players)]
    response = api.create({"game": game, "players": names, "first": 0})
    assert response.status_code == 201, response.content
    created = response.json()
    return Created(created["id"], created["edit_token"], created["state"])


def engine_state(match: Created) -> Any:
    return match_view(Match.objects.get(pk=match.id)).engine.state


# --- a retried action_id


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(st.sampled_from(["act", "act", "act", "undo", "retry", "forget"]), min_size=10, max_size=40),
    players=st.integers(0, 100),
)
def test_a_retried_action_gets_the_same_answer_without_a_stored_state(
    api: Api, game: str, seed: int, steps: list[str], players: int
) -> None:
    """Over random histories of each game (actions, undos, retries of any earlier
    action_id, folds forgotten by the process), every retry answers the bytes of its first
    answer, though no entry stores a State; and nothing a retry does changes the match."""
    counts, random_action, body_of = GAMES[game]
    match = new_match(api, game, counts[players % len(counts)])
    rng = random.Random(seed)
    first: dict[str, tuple[dict[str, Any], bytes]] = {}  # action_id -> (body, first answer)
    latest = api.read(match).content  # the match as the last accepted action left it
    accepted = 0
    for number, step in enumerate(steps):
        if step == "forget":  # another process (or a restart): the retry folds from the database
            fold_cache.clear()
            continue
        if step == "retry" and first:
            action_id = rng.choice(sorted(first))
            body, answer = first[action_id]
            before = Match.objects.get(pk=match.id).seq
            again = api.act(match, body)
            assert again.status_code == 200, again.content
            assert again.content == answer
            assert Match.objects.get(pk=match.id).seq == before
            continue
        state = engine_state(match)
        if step == "undo":
            body = {"type": "undo"}
        elif state.over:
            continue
        else:
            body = body_of(random_action(state, rng.choice))
        body["action_id"] = f"{game}-{number}"
        response = api.act(match, body)
        if response.status_code == 200:
            first[body["action_id"]] = (body, response.content)
            latest = response.content
            accepted += 1
        else:
            assert body["type"] == "undo", response.content  # only an undo with nothing to undo
            error_of(response, "nothing_to_undo", 409)
    assert not LogEntry.objects.filter(match_id=match.id, response__isnull=False).exists()
    fold_cache.clear()
    # Replayed from the stored actions alone, the match is exactly what the last action answered.
    assert api.read(match).content == latest
    for action_id, (body, answer) in first.items():  # every one again, at the end
        assert api.act(match, body).content == answer, action_id
    PROPERTY_VOLUME.record(actions=accepted)


def test_a_retry_of_an_entry_undone_since_gets_its_first_answer_undoable_and_all(api: Api) -> None:
    match = new_match(api, "sheet", 3)
    first = api.act(match, {"type": "round", "scores": [1, 2, 3], "action_id": "r1"})
    api.act(match, {"type": "undo", "action_id": "u1"})
    api.act(match, {"type": "round", "scores": [4, 5, 6], "action_id": "r2"})
    fold_cache.clear()
    again = api.act(match, {"type": "round", "scores": [1, 2, 3], "action_id": "r1"})
    assert again.content == first.content
    assert again.json()["seq"] == 1
    assert again.json()["players"][0]["rounds"] == [1]
    assert api.state(match)["seq"] == 3


def test_an_entry_stored_before_the_change_answers_a_retry_with_the_state_it_kept(api: Api) -> None:
    # Entries written before migration 0006 kept their answer; it is given back as it was.
    match = new_match(api, "sheet", 2)
    first = api.act(match, {"type": "round", "scores": [1, 2], "action_id": "old"}).json()
    kept = json.loads(json.dumps(first))
    kept["players"][0]["name"] = "P0 (as answered then)"
    LogEntry.objects.filter(match_id=match.id, action_id="old").update(response=kept)
    again = api.act(match, {"type": "round", "scores": [1, 2], "action_id": "old"})
    assert again.status_code == 200
    assert again.json() == kept


def test_a_page_retry_of_a_form_key_answers_from_the_log_without_a_stored_state(client: Client) -> None:
    created = client.post("/en/tables/new/sheet/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    table = created["Location"]
    row = Match.objects.get()
    form = {"type": "round", "score_0": "3", "score_1": "4", "action_id": "tap-1", "expected_seq": "0"}
    assert client.post(table + "act/", form).status_code == 303
    fold_cache.clear()
    assert client.post(table + "act/", form).status_code == 303  # the same tap again: nothing more
    row.refresh_from_db()
    assert row.seq == 1
    assert LogEntry.objects.get().response is None


def test_a_turn_costs_no_more_queries_than_before(api: Api) -> None:
    """The rate limit is counted in memory and the bound read off the row's seq: a turn
    moves the row and appends the entry (the match as last folded here: nothing read
    first, the compare and swap tells whether it stands; SQLite: no announce)."""
    match = new_match(api, "sheet", 20)
    api.act(match, {"type": "round", "scores": [1] * 20})  # the fold is now in this process's cache
    with CaptureQueriesContext(connection) as queries:
        response = api.act(match, {"type": "round", "scores": [2] * 20, "action_id": "q"})
    assert response.status_code == 200
    writes = [query["sql"].split()[0] for query in queries.captured_queries]  # each statement's verb
    # (SAVEPOINT and RELEASE: the test's own transaction around the service's atomic block;
    # on PostgreSQL the new seq is announced to the other processes with pg_notify, a SELECT)
    announce = ["SELECT"] if connection.vendor == "postgresql" else []
    assert writes == ["SAVEPOINT", "UPDATE", "INSERT", *announce, "RELEASE"]


# --- the log's bound


def test_a_match_at_its_log_bound_refuses_more_in_both_languages_and_changes_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "MAX_LOG_ENTRIES", 3)
    match = new_match(api, "sheet", 2)
    api.play(
        match,
        {"type": "round", "scores": [1, 1], "action_id": "a"},
        {"type": "undo"},
        {"type": "round", "scores": [2, 2]},
    )
    before = api.state(match)
    english = error_of(api.act(match, {"type": "round", "scores": [3, 3]}), "log_full", 409)
    assert "3 entries" in english
    assert "new match" in english
    french = error_of(api.act(match, {"type": "undo"}, language="fr"), "log_full", 409)
    assert "nouvelle partie" in french
    assert "3" in french
    assert api.state(match) == before
    assert LogEntry.objects.filter(match_id=match.id).count() == 3
    # A retry is no new entry: still answered at the bound.
    assert api.act(match, {"type": "round", "scores": [1, 1], "action_id": "a"}).status_code == 200


def test_the_table_page_says_the_log_is_full_in_the_bar(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "MAX_LOG_ENTRIES", 1)
    table = client.post("/fr/tables/nouvelle/sheet/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})["Location"]
    client.post(table + "act/", {"type": "round", "score_0": "3", "score_1": "4"})
    refused = client.post(
        table + "act/", {"type": "round", "score_0": "1", "score_1": "1"}, headers={"HX-Request": "true"}
    )
    assert refused.status_code == 409
    page = refused.content.decode()
    assert 'data-code="log_full"' in page
    assert "nouvelle partie" in page
    assert Match.objects.get().seq == 1


def test_the_log_bound_is_far_above_every_game_s_longest_match() -> None:
    from marquoir.games.sheet.engine import MAX_ROUNDS
    from marquoir.games.tarot.engine import MAX_DEALS

    # Each entry in force is a round or a deal at most once: ten times the longest, undos aside.
    assert services.MAX_LOG_ENTRIES >= 10 * max(MAX_ROUNDS, MAX_DEALS)
    assert services.MAX_LOG_ENTRIES >= LOG_SHOWN


# --- the table page shows only the last entries


def _sheet_with_log(client: Client, entries: list[tuple[str, list[int] | None]]) -> str:
    """A two-player sheet whose log is ``entries`` (kind "action" with scores, or "undo"),
    written straight into the database as match_act would have (fast, for long logs)."""
    table = client.post("/en/tables/new/sheet/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})["Location"]
    row = Match.objects.get()
    rows: list[LogEntry] = []
    standing: list[int] = []
    for seq, (kind, scores) in enumerate(entries, start=1):
        if kind == "undo":
            undone = standing.pop()
            rows[undone - 1].undone_by = seq
            rows.append(LogEntry(match=row, seq=seq, kind="undo", payload={"type": "undo"}, undoes=undone))
        else:
            standing.append(seq)
            rows.append(LogEntry(match=row, seq=seq, kind="action", payload={"type": "round", "scores": scores}))
    LogEntry.objects.bulk_create(rows)
    Match.objects.filter(pk=row.pk).update(seq=len(entries))
    return table


def test_the_table_page_shows_the_last_entries_and_says_how_many_are_not(client: Client) -> None:
    # LOG_SHOWN + 50 entries, within the sheet's 200 rounds: rounds, then round/undo pairs.
    entries: list[tuple[str, list[int] | None]] = [("action", [seq, 0]) for seq in range(1, 101)]
    while len(entries) < LOG_SHOWN + 50:
        entries += [("action", [7, 7]), ("undo", None)]
    table = _sheet_with_log(client, entries[: LOG_SHOWN + 50])
    page = client.get(table).content.decode()
    log = page[page.index('class="log__lines"') :]
    log = log[: log.index("</ol>")]
    assert log.count("<li") == LOG_SHOWN
    assert f'start="{LOG_SHOWN + 50}"' in log
    assert "And 50 earlier entries, not shown here." in page
    french = client.get(table.replace("/en/", "/fr/", 1)).content.decode()
    assert "Et 50 entrées plus anciennes, non affichées ici." in french


def test_a_short_log_is_shown_whole_without_the_line(client: Client) -> None:
    table = _sheet_with_log(client, [("action", [1, 2]), ("action", [3, 4])])
    page = client.get(table).content.decode()
    assert "earlier entr" not in page


def test_undo_stays_offered_when_every_line_shown_is_undone(client: Client) -> None:
    # One round in force, then enough round/undo pairs that the lines shown are all undone or undos.
    churn: list[tuple[str, list[int] | None]] = []
    for _ in range(LOG_SHOWN):
        churn += [("action", [9, 9]), ("undo", None)]
    table = _sheet_with_log(client, [("action", [1, 2]), *churn])
    row = Match.objects.get()
    secret = "a-device-that-keeps-score-" + "x" * 10
    services.device_link(device_secret=secret, match=row, can_edit=True)
    client.cookies[COOKIE_NAME] = secret
    page = client.get(table).content.decode()
    assert 'class="bar__undo"' in page


# --- the rate of actions


def test_actions_over_the_rate_of_a_match_are_refused_with_429_and_retry_after(api: Api, settings: Any) -> None:
    settings.MATCH_ACTION_LIMIT, settings.MATCH_ACTION_WINDOW_SECONDS = 3, 10
    match = new_match(api, "sheet", 2)
    api.play(match, *({"type": "round", "scores": [1, 1]} for _ in range(3)))
    before = api.state(match)
    refused = api.act(match, {"type": "round", "scores": [1, 1]})
    message = error_of(refused, "rate_limited", 429)
    assert 1 <= int(refused["Retry-After"]) <= 10
    assert message.startswith("Too many actions in a row: nothing was recorded.")
    french = error_of(api.act(match, {"type": "undo"}, language="fr"), "rate_limited", 429)
    assert french.startswith("Trop d’actions d’affilée")
    assert api.state(match) == before
    # Another match from the same address has its own allowance.
    other = new_match(api, "sheet", 2)
    assert api.act(other, {"type": "round", "scores": [1, 1]}).status_code == 200


def test_actions_over_the_rate_of_an_address_are_refused_across_its_matches(api: Api, settings: Any) -> None:
    settings.MATCH_ACTION_ADDRESS_LIMIT = 4
    matches = [new_match(api, "sheet", 1) for _ in range(5)]
    codes = [api.act(match, {"type": "round", "scores": [1]}).status_code for match in matches]
    assert codes == [200, 200, 200, 200, 429]
    elsewhere = Api(Client(REMOTE_ADDR="10.0.0.7"))
    assert elsewhere.act(matches[4], {"type": "round", "scores": [1]}).status_code == 200


def test_the_allowance_of_actions_comes_back_after_the_window(
    api: Api, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from marquoir.tables import ratelimit

    now = [5000.0]
    monkeypatch.setattr(ratelimit.LIMITER, "clock", lambda: now[0])
    settings.MATCH_ACTION_LIMIT, settings.MATCH_ACTION_WINDOW_SECONDS = 1, 10
    match = new_match(api, "sheet", 1)
    assert api.act(match, {"type": "round", "scores": [1]}).status_code == 200
    assert api.act(match, {"type": "round", "scores": [1]}).status_code == 429
    now[0] += 10
    assert api.act(match, {"type": "round", "scores": [1]}).status_code == 200


@pytest.mark.parametrize("htmx", [True, False])
def test_the_table_page_refuses_actions_over_the_rate_in_the_bar_with_retry_after(
    client: Client, settings: Any, htmx: bool
) -> None:
    settings.MATCH_ACTION_LIMIT = 2
    table = client.post("/fr/tables/nouvelle/sheet/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})["Location"]
    headers = {"HX-Request": "true"} if htmx else {}
    for _ in range(2):
        client.post(table + "act/", {"type": "round", "score_0": "1", "score_1": "1"}, headers=headers)
    refused = client.post(table + "act/", {"type": "round", "score_0": "2", "score_1": "2"}, headers=headers)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= settings.MATCH_ACTION_WINDOW_SECONDS
    page = refused.content.decode()
    assert 'data-code="rate_limited"' in page
    assert "Trop d’actions d’affilée\u00a0: rien n’a été enregistré." in page
    assert 'id="table"' in page  # the outbox shows it in place and does not send it again
    assert Match.objects.get().seq == 2


def test_a_refused_api_answer_for_the_rate_fits_the_contract(api: Api, settings: Any) -> None:
    settings.MATCH_ACTION_LIMIT = 0
    match = new_match(api, "sheet", 1)
    response = api.act(match, {"type": "round", "scores": [1]})
    assert set(response.json()["error"]) == {"code", "message"}
    assert response.status_code == 429


def test_a_watch_id_alone_cannot_spend_a_table_s_allowance(api: Api, settings: Any) -> None:
    settings.MATCH_ACTION_LIMIT = 2
    match = new_match(api, "sheet", 1)
    for _ in range(5):
        assert api.act(match, {"type": "round", "scores": [1]}, token="wrong").status_code == 401
    assert api.act(match, {"type": "round", "scores": [1]}).status_code == 200


# --- the migration


@pytest.mark.django_db(transaction=True)
def test_entries_stored_before_the_migration_keep_their_answer_through_it() -> None:
    from django.db.migrations.executor import MigrationExecutor

    def migrate(target: str | None) -> Any:
        """Tables to ``target``; None: every app to its latest migration (the ones since
        0006 keep every stored answer, and the rest of the suite expects them)."""
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        targets = [("tables", target)] if target else executor.loader.graph.leaf_nodes()
        executor.migrate(targets)
        return executor.loader.project_state(targets).apps

    old = migrate("0005_log_kinds_action_and_undo")
    row = old.get_model("tables", "Match").objects.create(game="sheet", players=["Ada"], first=0, options={}, seq=1)
    answered = {"as": "answered then", "seq": 1}
    old.get_model("tables", "LogEntry").objects.create(
        match=row, seq=1, kind="action", payload={"type": "round", "scores": [4]}, action_id="a1", response=answered
    )
    migrate("0006_bounded_growth")
    migrate(None)
    fold_cache.clear()
    entry = LogEntry.objects.get(match_id=row.pk)
    assert entry.response == answered  # kept: the answer exactly as it was sent
    retried = services.match_act(match_id=row.pk, body={"type": "round", "scores": [4], "action_id": "a1"})
    assert retried.replayed
    assert retried.state == answered
    fresh = services.match_act(match_id=row.pk, body={"type": "round", "scores": [5], "action_id": "a2"}).or_raise()
    assert LogEntry.objects.get(pk=fresh.entry.pk).response is None
