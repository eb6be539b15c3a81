"""Match creation is limited per client, for the API and the set-up page alike."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from marquoir.tables.models import Match

pytestmark = pytest.mark.django_db

BODY = {"game": "pickomino", "players": ["Ada", "Ben"]}


@override_settings(MATCH_CREATION_LIMIT=2)
def test_the_api_refuses_a_client_over_the_limit_with_429_and_creates_nothing(client: Client):
    codes = [client.post("/api/v1/matches", BODY, content_type="application/json").status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    refused = client.post("/api/v1/matches", BODY, content_type="application/json", headers={"accept-language": "fr"})
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused["Retry-After"] == "600"
    assert Match.objects.count() == 2


@override_settings(MATCH_CREATION_LIMIT=1)
def test_another_client_has_its_own_allowance(client: Client):
    assert client.post("/api/v1/matches", BODY, content_type="application/json").status_code == 201
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/api/v1/matches", BODY, content_type="application/json").status_code == 201


@override_settings(MATCH_CREATION_LIMIT=1, MATCH_CREATION_WINDOW_SECONDS=0)
def test_the_allowance_comes_back_when_the_window_has_passed(client: Client):
    for _ in range(3):
        assert client.post("/api/v1/matches", BODY, content_type="application/json").status_code == 201


@override_settings(MATCH_CREATION_ADDRESS_LIMIT=1)
def test_the_set_up_page_shares_the_address_ceiling_and_says_so(client: Client):
    client.post("/api/v1/matches", BODY, content_type="application/json")
    response = client.post("/en/tables/new/pickomino/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    assert response.status_code == 429
    assert "Too many new matches" in response.content.decode()
    assert Match.objects.count() == 1


@override_settings(MATCH_CREATION_LIMIT=1, MARQUOIR_BEHIND_PROXY=True, MARQUOIR_PROXY_HOPS=2)
def test_behind_two_proxies_the_address_the_outer_one_saw_is_the_client(client: Client):
    first = {"x-forwarded-for": "203.0.113.5, 10.0.0.1"}
    second = {"x-forwarded-for": "203.0.113.6, 10.0.0.1"}
    assert client.post("/api/v1/matches", BODY, content_type="application/json", headers=first).status_code == 201
    assert client.post("/api/v1/matches", BODY, content_type="application/json", headers=first).status_code == 429
    assert client.post("/api/v1/matches", BODY, content_type="application/json", headers=second).status_code == 201


def create(client: Client, forwarded: str) -> int:
    return client.post(
        "/api/v1/matches", BODY, content_type="application/json", headers={"x-forwarded-for": forwarded}
    ).status_code


@override_settings(MATCH_CREATION_LIMIT=1, MARQUOIR_BEHIND_PROXY=True, MARQUOIR_PROXY_HOPS=1)
def test_behind_the_proxy_a_client_cannot_pick_a_new_address_for_each_request(client: Client):
    # The proxy appends the address it saw (198.51.100.7); whatever comes before is the
    # client's own say, and changing it must not buy a new allowance.
    assert create(client, "203.0.113.1, 198.51.100.7") == 201
    assert create(client, "203.0.113.2, 198.51.100.7") == 429
    assert create(client, "198.51.100.8") == 201


@override_settings(MATCH_CREATION_LIMIT=1, MARQUOIR_BEHIND_PROXY=True, MARQUOIR_PROXY_HOPS=1)
@pytest.mark.parametrize("forwarded", ["not an address", "x" * 500, "1.2.3.4, " + "9" * 300, ""])
def test_behind_the_proxy_a_forwarded_header_that_is_no_address_counts_as_the_proxy_itself(
    client: Client, forwarded: str
):
    assert create(client, forwarded) == 201
    assert create(client, "garbage") == 429  # both counted under REMOTE_ADDR
