"""The API is built by a function, for a set of games: the site's is built once (and served by
the URLconf), and a test may build one with a game of its own beside it."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

from marquoir.tables.api import build_api, get_api
from marquoir.tables.keepers import all_keepers
from tests.fake_game.keeper import KEEPER as TALLY


def openapi(api: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(json.dumps(api.get_openapi_schema(path_prefix="/api/v1")))
    return document


def game_keys(document: dict[str, Any]) -> list[str]:
    """The keys of the installed games ``CreateIn.game`` takes (beside the pattern of a
    user's own games, ``own.<id>``: issue 23)."""
    game = document["components"]["schemas"]["CreateIn"]["properties"]["game"]
    branches = game.get("anyOf", [game])
    return [key for branch in branches for key in branch.get("enum", [])]


def test_the_site_s_api_is_built_once():
    assert get_api() is get_api()


def test_building_the_api_again_for_the_same_games_documents_it_byte_for_byte():
    again = build_api(all_keepers(), urls_namespace="api-v1-again")
    assert json.dumps(openapi(again)) == json.dumps(openapi(get_api()))


def test_the_served_openapi_is_the_site_s_api(client: Client):
    served = client.get("/api/v1/openapi.json").json()
    assert served == openapi(get_api())


def test_an_api_built_with_a_game_of_its_own_documents_it_beside_the_others():
    keepers = {**all_keepers(), TALLY.key: TALLY}
    document = openapi(build_api(keepers, urls_namespace="api-v1-with-tally"))
    schemas = document["components"]["schemas"]
    assert "TallyStateOut" in schemas
    assert "AddIn" in schemas  # its action, in the actions' body
    assert TALLY.key in game_keys(document)
    # The site's own API is left as it was.
    site = openapi(get_api())
    assert "TallyStateOut" not in site["components"]["schemas"]
    assert TALLY.key not in game_keys(site)
