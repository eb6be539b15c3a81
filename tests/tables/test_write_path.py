"""The write path, straight: what a recorded action costs in queries, what ``match_act`` says
of a request (applied, replayed, refused, with the inputs a refusal is about), the rules it
holds itself (a form's key used again for another action), and a new match checked once."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.http import QueryDict
from django.test import Client
from django.test.utils import CaptureQueriesContext

from marquoir.tables import capabilities, names, services
from marquoir.tables.fold import fold_cache
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.outcome import Status
from marquoir.tables.ratelimit import Allowance

from .conftest import BUST, Api, create_row, take

MAX_QUERIES_A_TURN = 4
"""issue 20's bound: the write's transaction (begin, move the row, append the entry, commit)."""


def most_queries_a_turn() -> int:
    """The bound on this database: PostgreSQL also announces the new seq to the other
    processes (NOTIFY) in the same transaction, the news without a broker."""
    return MAX_QUERIES_A_TURN + (1 if connection.vendor == "postgresql" else 0)


def form(**fields: object) -> QueryDict:
    posted = QueryDict(mutable=True)
    posted.update({name: str(value) for name, value in fields.items()})
    return posted


def table_and_form(client: Client) -> tuple[str, dict[str, str]]:
    """A new Pickomino table made on its set-up page, and its bust form's fields as the page
    gives them (the guards: expected_seq, action_id)."""
    created = client.post("/en/tables/new/pickomino/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    table = created["Location"]
    page = client.get(table).content.decode()
    seq = re.search(r'name="expected_seq" value="(\d+)"', page)
    action_id = re.search(r'name="action_id" value="(\w+)"', page)
    assert seq is not None
    assert action_id is not None
    return table, {"type": "bust", "expected_seq": seq.group(1), "action_id": action_id.group(1)}


@pytest.mark.django_db
def test_a_turn_recorded_from_the_table_screen_costs_at_most_four_queries(client: Client):
    table, fields = table_and_form(client)
    with CaptureQueriesContext(connection) as queries:
        # As a browser sends a form (and the page's outbox too): urlencoded.
        answer = client.post(table + "act/", urlencode(fields), content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 303
    assert len(queries) <= most_queries_a_turn(), [query["sql"] for query in queries.captured_queries]
    assert LogEntry.objects.get().payload["type"] == "bust"


@pytest.mark.django_db
def test_an_action_by_the_api_costs_at_most_four_queries(api: Api):
    match = api.new_match()
    api.play(match, take(27))
    with CaptureQueriesContext(connection) as queries:
        api.play(match, BUST)
    assert len(queries) <= most_queries_a_turn(), [query["sql"] for query in queries.captured_queries]


@pytest.mark.django_db
def test_the_outcome_of_an_action_says_it_was_applied_with_the_match_after_it(row: Match):
    outcome = services.match_act(match_id=row.id, body=take(27))
    assert outcome.status is Status.APPLIED
    assert outcome.view is not None
    assert outcome.view.row.seq == 1
    assert outcome.entry is not None
    assert outcome.entry.pk == LogEntry.objects.get().pk
    assert outcome.state is not None
    assert outcome.state["seq"] == 1
    assert outcome.error is None


@pytest.mark.django_db
def test_a_refused_action_is_an_outcome_naming_the_field_it_is_about(row: Match):
    outcome = services.match_act(match_id=row.id, body={"type": "take", "total": "27", "worm": True, "from": "grill"})
    assert outcome.refused
    assert outcome.error is not None
    assert outcome.error.code == "invalid"
    assert outcome.refused_fields == ("total",)
    assert outcome.words_of_game  # the game words it
    assert outcome.view is not None  # the match as it stands, to show it again
    assert outcome.view.row.seq == 0
    assert not LogEntry.objects.exists()


@pytest.mark.django_db
def test_a_rule_refusal_carries_the_rule_error(row: Match):
    outcome = services.match_act(match_id=row.id, body={"type": "undo"})
    assert outcome.refused
    assert outcome.rule_error is not None
    assert outcome.rule_error.code == "nothing_to_undo"
    assert outcome.refused_fields == ()


@pytest.mark.django_db
def test_a_match_that_does_not_exist_is_refused_as_not_found_without_a_view():
    outcome = services.match_act(match_id="no-such-match", body=BUST)
    assert outcome.refused
    assert outcome.error is not None
    assert outcome.error.code == "not_found"
    assert outcome.view is None


@pytest.mark.django_db
def test_a_key_sent_again_with_another_action_is_answered_by_the_api_and_refused_to_a_page(row: Match):
    services.match_act(match_id=row.id, body={**take(27), "action_id": "k1"}).or_raise()
    by_api = services.match_act(match_id=row.id, body={**BUST, "action_id": "k1"})
    assert by_api.replayed  # the API answers a key with its first answer
    by_page = services.match_act(match_id=row.id, body={**BUST, "action_id": "k1"}, one_action_per_key=True)
    assert by_page.refused
    assert by_page.error is not None
    assert by_page.error.code == "conflict"
    same_again = services.match_act(match_id=row.id, body={**take(27), "action_id": "k1"}, one_action_per_key=True)
    assert same_again.replayed
    assert LogEntry.objects.filter(match=row).count() == 1


@pytest.mark.django_db
def test_a_page_writes_only_for_a_device_that_keeps_score(row: Match):
    keeper_phone, other_phone = "keeper-phone-secret-0123456789", "other-phone-secret-0123456789"
    capabilities.device_link(device_secret=keeper_phone, match=row, can_edit=True)
    refused = services.match_act(match_id=row.id, form=form(type="bust"), by_device=True, device_secret=other_phone)
    assert refused.refused
    assert refused.error is not None
    assert refused.error.code == "unauthorized"
    applied = services.match_act(match_id=row.id, form=form(type="bust"), by_device=True, device_secret=keeper_phone)
    assert applied.applied
    assert LogEntry.objects.filter(match=row).count() == 1


@pytest.mark.django_db
def test_the_action_budget_is_spent_once_the_right_is_known_and_not_before(row: Match):
    spent: list[str] = []

    def spend() -> Any:
        spent.append("one")
        return Allowance(False, 7)

    refused = services.match_act(match_id=row.id, form=form(type="bust"), by_device=True, spend=spend)
    assert refused.error is not None
    assert refused.error.code == "unauthorized"
    assert spent == []  # no right: nothing counted
    phone = "a-phone-secret-0123456789abcd"
    services.device_link(device_secret=phone, match=row, can_edit=True)
    limited = services.match_act(
        match_id=row.id, form=form(type="bust"), by_device=True, device_secret=phone, spend=spend
    )
    assert limited.error is not None
    assert (limited.error.code, limited.retry_after) == ("rate_limited", 7)
    assert spent == ["one"]
    assert not LogEntry.objects.exists()


@pytest.mark.django_db
def test_a_device_s_right_once_seen_is_known_without_a_query(row: Match, django_assert_num_queries: Any):
    secret = "a-phone-that-keeps-score-0123456789"
    capabilities.device_link(device_secret=secret, match=row, can_edit=True)
    capabilities.MATCH_LINKS.forget_all()
    with django_assert_num_queries(1):
        assert capabilities.device_can_edit(device_secret=secret, match=row)
    with django_assert_num_queries(0):
        assert capabilities.device_can_edit(device_secret=secret, match=row)


def count_name_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names the name policy checks from now on, in order."""
    checked: list[str] = []
    real_check = names.check_name

    def check(name: str) -> None:
        checked.append(name)
        real_check(name)

    monkeypatch.setattr(names, "check_name", check)
    return checked


@pytest.mark.django_db
def test_a_new_match_from_the_set_up_page_checks_each_name_once(client: Client, monkeypatch: pytest.MonkeyPatch):
    checked = count_name_checks(monkeypatch)
    created = client.post("/en/tables/new/pickomino/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    assert created.status_code == 303
    assert checked == ["Ada", "Ben"]


@pytest.mark.django_db
def test_a_new_match_by_the_api_checks_each_name_once(api: Api, monkeypatch: pytest.MonkeyPatch):
    checked = count_name_checks(monkeypatch)
    api.new_match()
    assert checked == ["Ada", "Ben", "Cy"]


def test_a_match_changed_without_a_new_seq_is_read_again_before_the_write(db: None):
    """The assistant's switch moves no seq: the compare and swap still sees the match is not
    as this process last folded it, and the action is worked out again from the database."""
    row, _token = create_row()
    services.match_act(match_id=row.id, body=take(27)).or_raise()
    Match.objects.filter(pk=row.pk).update(assistant=True)  # no seq moves: the swap must see it
    outcome = services.match_act(match_id=row.id, body=BUST).or_raise()
    assert outcome.view is not None
    assert outcome.view.row.assistant is True
    assert [entry.seq for entry in LogEntry.objects.filter(match=row).order_by("seq")] == [1, 2]


@pytest.mark.django_db
@pytest.mark.parametrize("cached", [True, False], ids=["last-seen-here", "read-afresh"])
def test_a_match_whose_time_another_tool_wrote_in_another_form_still_takes_actions(cached: bool):
    # The compare and swap holds on the seq and the fields that change without it, never on
    # a time compared as text: SQLite would refuse such a row for ever ("expected 0, is 0").
    row, _token = create_row()
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Match._meta.db_table} SET updated_at = %s WHERE id = %s",  # noqa: S608 (our table's name)
            ["2026-01-01 10:00:00.123", row.id],
        )
    if not cached:
        fold_cache.clear()

    outcome = services.match_act(match_id=row.id, body=BUST)

    assert outcome.status is Status.APPLIED, outcome.error and (outcome.error.code, outcome.error.params)
    assert Match.objects.get(pk=row.id).seq == 1
