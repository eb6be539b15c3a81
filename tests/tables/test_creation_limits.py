"""Issue 18, list 8: page creations without a cookie are counted by the address with a
device's allowance (not as a new device each time), and expired rate buckets are purged."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from marquoir.tables import ratelimit
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import Match, RateBucket

pytestmark = pytest.mark.django_db

FORM = {"name_0": "Ada", "name_1": "Ben", "first": "0"}
PAGE = "/en/tables/new/pickomino/"


@override_settings(MATCH_CREATION_LIMIT=2, MATCH_CREATION_ADDRESS_LIMIT=300)
def test_page_creations_without_a_cookie_share_one_device_allowance_for_the_address():
    # Before: each request without a cookie was a new device, so 300 matches per window.
    codes = [Client().post(PAGE, FORM).status_code for _ in range(4)]
    assert codes == [303, 303, 429, 429]
    refused = Client().post(PAGE, FORM)
    assert "Too many new matches" in refused.content.decode()
    assert 1 <= int(refused["Retry-After"]) <= 600
    assert Match.objects.count() == 2


@override_settings(MATCH_CREATION_LIMIT=2, MATCH_CREATION_ADDRESS_LIMIT=300)
def test_a_made_up_device_cookie_buys_no_new_allowance():
    codes = []
    for number in range(4):
        client = Client()
        client.cookies[COOKIE_NAME] = f"made-up-device-{number:04d}-" + "z" * 16
        codes.append(client.post(PAGE, FORM).status_code)
    assert codes == [303, 303, 429, 429]


@override_settings(MATCH_CREATION_LIMIT=1, MATCH_CREATION_ADDRESS_LIMIT=300)
def test_a_phone_that_has_kept_score_here_keeps_its_own_allowance():
    phone = Client()
    assert phone.post(PAGE, FORM).status_code == 303  # its first match: counted by the address
    assert phone.cookies[COOKIE_NAME].value
    assert Client().post(PAGE, FORM).status_code == 429  # the address's cookie-less allowance is spent
    # The phone is now a device a match knows: its own allowance (1 per window here).
    assert phone.post(PAGE, FORM).status_code == 303
    assert phone.post(PAGE, FORM).status_code == 429


@override_settings(MATCH_CREATION_LIMIT=1, MATCH_CREATION_ADDRESS_LIMIT=300)
def test_the_api_and_the_page_count_a_cookie_less_client_in_the_same_bucket(client: Client):
    body = {"game": "sheet", "players": ["Ada"]}
    assert client.post("/api/v1/matches", body, content_type="application/json").status_code == 201
    assert Client().post(PAGE, FORM).status_code == 429


def _bucket(key: str, age: timedelta, count: int = 1) -> RateBucket:
    return RateBucket.objects.create(key=key, window_start=timezone.now() - age, count=count)


@override_settings(MATCH_CREATION_WINDOW_SECONDS=600)
def test_rate_buckets_are_purged_once_expired_a_bounded_batch_per_creation(client: Client):
    expired = [_bucket(f"create:198.51.100.{n}", timedelta(minutes=11 + n)) for n in range(ratelimit.PURGE_BATCH + 5)]
    live = _bucket("create:198.51.100.250", timedelta(minutes=9))
    body = {"game": "sheet", "players": ["Ada"]}
    assert client.post("/api/v1/matches", body, content_type="application/json").status_code == 201
    left = set(RateBucket.objects.values_list("key", flat=True))
    # The oldest PURGE_BATCH went; the 5 youngest expired ones wait for the next creation.
    assert {bucket.key for bucket in expired[-ratelimit.PURGE_BATCH :]}.isdisjoint(left)
    assert {bucket.key for bucket in expired[:5]} <= left
    assert live.key in left
    other = Client(REMOTE_ADDR="10.0.0.3")
    assert other.post("/api/v1/matches", body, content_type="application/json").status_code == 201
    left = set(RateBucket.objects.values_list("key", flat=True))
    assert not {bucket.key for bucket in expired} & left
    assert {live.key, "create:127.0.0.1", "create:10.0.0.3"} <= left


@override_settings(MATCH_CREATION_WINDOW_SECONDS=600, MATCH_CREATION_LIMIT=5)
def test_a_creation_that_adds_no_bucket_purges_nothing_and_its_own_expired_bucket_restarts(client: Client):
    own = _bucket("create:127.0.0.1", timedelta(minutes=20), count=5)  # expired, full: starts afresh
    _bucket("create-address:127.0.0.1", timedelta(minutes=1))
    stranger = _bucket("create:203.0.113.9", timedelta(minutes=30))
    body = {"game": "sheet", "players": ["Ada"]}
    assert client.post("/api/v1/matches", body, content_type="application/json").status_code == 201
    own.refresh_from_db()
    assert own.count == 1
    assert RateBucket.objects.filter(pk=stranger.pk).exists()  # no new bucket, no purge: bounded work


def test_the_rate_buckets_table_stays_bounded_under_many_clients():
    # 200 clients, each creating once, over windows that have all passed: the table holds
    # far fewer than 200 rows, since every new bucket deletes up to PURGE_BATCH old ones.
    body = {"game": "sheet", "players": ["Ada"]}
    with override_settings(MATCH_CREATION_WINDOW_SECONDS=0):
        for number in range(200):
            client = Client(REMOTE_ADDR=f"10.1.{number // 250}.{number % 250}")
            assert client.post("/api/v1/matches", body, content_type="application/json").status_code == 201
    assert RateBucket.objects.count() <= 2 * (ratelimit.PURGE_BATCH + 2)
