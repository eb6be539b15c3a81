"""Every game's table screen is the core's shell (tables/table.html) with the game's blocks in
it: one #table root carrying live.js's data contract, redrawn alone for htmx, with the
other phones' links and the awake switch outside it; the standings, the chart and the
rematch drawn by the shell once the match is over."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from .test_contract import KEYS, act, address, legal_first_action, new_match

pytestmark = pytest.mark.django_db

DATA_CONTRACT = ("data-seq", "data-match", "data-home", "data-events", "data-state")


def joined_phone(row_id: str, token: str) -> Client:
    phone = Client()
    assert phone.post(address("tables:join", "en", match_id=row_id), {"key": token}).status_code == 303
    return phone


def root_of(page: str) -> str:
    found = re.search(r'<div id="table"[^>]*>', page)
    assert found, "no #table root"
    return found.group(0)


@pytest.mark.parametrize("key", KEYS)
def test_the_full_page_has_one_table_root_with_the_data_contract_and_the_shell_s_parts(key: str) -> None:
    row, token = new_match(key)
    act(row, legal_first_action(key))
    page = joined_phone(row.id, token).get(address("tables:table", "en", match_id=row.id)).content.decode()

    assert page.count('id="table"') == 1
    root = root_of(page)
    for attribute in DATA_CONTRACT:
        assert f"{attribute}=" in root, attribute
    assert f'data-seq="{row.seq + 1}"' in root
    assert 'id="bar"' in page
    # The awake switch and the share links are outside the root htmx redraws.
    tail = page[page.index('id="table"') :]
    assert 'class="awake"' in page
    assert 'class="share"' in page
    assert page.index('class="share"') > page.index('id="bar"')
    assert "My matches" in tail


@pytest.mark.parametrize("key", KEYS)
def test_htmx_gets_only_the_table_root(key: str) -> None:
    row, token = new_match(key)
    phone = joined_phone(row.id, token)
    part = phone.get(address("tables:table", "en", match_id=row.id), headers={"HX-Request": "true"}).content.decode()

    assert part.lstrip().startswith('<div id="table"'), part[:200]
    assert part.rstrip().endswith("</div>")
    assert "<html" not in part
    assert 'class="awake"' not in part
    assert 'class="share"' not in part
    for attribute in DATA_CONTRACT:
        assert f"{attribute}=" in root_of(part), attribute


@pytest.mark.parametrize("key", KEYS)
def test_a_watcher_is_told_it_watches_in_the_game_s_words(key: str) -> None:
    row, _token = new_match(key)
    page = Client().get(address("tables:table", "en", match_id=row.id)).content.decode()

    assert 'class="hint watching"' in page
    assert "Only the devices keeping score can record" in page
    assert 'name="action_id"' not in page.split('id="bar"')[0]
