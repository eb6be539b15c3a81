"""Every answer of the API in the test suite, checked against the OpenAPI schema the app
serves: the status is one the operation documents, and the JSON body fits its schema.

``check_answer`` is called by an autouse fixture (tests/conftest.py) on each response
Django's test client gets from /api/v1/, whatever the test was about.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

API_ROOT = "/api/v1"
# Not JSON answers of the contract: the stream, the docs page, the schema itself.
UNCHECKED = re.compile(r"/api/v1/(docs.*|openapi\.json|matches/[^/]+/events)")
# Answers no operation writes: the core's JSON for addresses and methods the API does not
# have, in the contract's error shape (400: a host name the server does not serve, refused
# before any route, marquoir.bad_requests; 503: the database out of reach, or the body
# budget spent, marquoir.bodies; docs/api.md's error table says both for every address).
CORE_STATUSES = {400, 404, 405, 413, 415, 500, 503}


@cache
def _openapi() -> dict[str, Any]:
    from marquoir.tables.api import get_api

    document: dict[str, Any] = json.loads(json.dumps(get_api().get_openapi_schema()))
    return document


@cache
def _registry() -> Registry:
    document = _openapi()
    registry: Registry = Registry().with_resource(
        "urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012)
    )
    return registry


@cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    found = []
    for template, methods in _openapi()["paths"].items():
        pattern = re.compile(re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in methods.items():
            found.append((pattern, method.upper(), operation))
    return found


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    # The schema's "#/components/…" references point into the whole document.
    rebased = json.loads(json.dumps(schema).replace('"#/components/', '"urn:openapi#/components/'))
    return Draft202012Validator(rebased, registry=_registry())


def check_answer(method: str, path: str, status: int, content_type: str, body: bytes) -> None:
    """AssertionError if this answer is not one the OpenAPI documents."""
    if not path.startswith(API_ROOT) or UNCHECKED.fullmatch(path) or method == "OPTIONS":
        return
    operation = next((op for pattern, verb, op in _operations() if verb == method and pattern.match(path)), None)
    error_schema = {"$ref": "#/components/schemas/ErrorOut"}
    if operation is None or str(status) not in operation["responses"]:
        assert status in CORE_STATUSES, f"{method} {path}: {status} is not documented"
        schema: dict[str, Any] = error_schema
    else:
        documented = operation["responses"][str(status)]
        content = documented.get("content", {})
        if status == 204:  # no content: documented so, and sent so
            assert not content, f"{method} {path}: its 204 documents a body"
            assert body == b"", f"{method} {path}: a 204 with a body"
            return
        for media in ("text/csv", "application/toml"):  # a file (a group's, an own game's export)
            if content_type.startswith(media):
                assert media in content, f"{method} {path} {status}: {media} is not documented"
                assert body.decode("utf-8"), f"{method} {path} {status}: an empty file"
                return
        schema = content.get("application/json", {}).get("schema", error_schema)
    assert content_type.startswith("application/json"), f"{method} {path} {status}: {content_type}"
    errors = sorted(_validator(schema).iter_errors(json.loads(body)), key=str)
    assert not errors, f"{method} {path} {status}: {errors[0].message} at {list(errors[0].absolute_path)}"
