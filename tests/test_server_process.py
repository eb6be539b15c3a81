"""What depends on the server process, tried on real ones: `make run`'s (scripts/run.py, uvicorn,
DEBUG on when it stays on this machine) and `make serve`'s (gunicorn with marquoir/gunicorn_conf.py,
DEBUG off), each on a fresh SQLite file, started as production starts them (marquoir.settings,
no development key).

- a foreign ``Host`` (DNS rebinding) never gets Django's debug page: a short plain 400 on pages,
  the contract's JSON on /api/, in the language asked for;
- a form over Django's limits sent to /api/ is refused in JSON, not with an HTML 400;
- ``X-Forwarded-For`` from this machine does not choose the client address (the rate limits
  count the connection's address) unless MARQUOIR_BEHIND_PROXY says a proxy of ours is there;
- `make run` signs with a key of its own, made on its first start;
- scripts/serve.sh restarts without redoing its build and deploy steps, and redoes them when
  something they depend on changed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from marquoir.env import DEVELOPMENT_SECRET_KEY
from marquoir.tables.services import edit_token_for

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT_S = 60
FOREIGN = "rebound.attacker.example"
# What Django's debug page (technical_500 / technical_404) is made of.
DEBUG_PAGE_MARKS = ("Traceback", "DisallowedHost", "ALLOWED_HOSTS", "settings", "<html", "Request Method")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def production_environment(tmp: Path, **extra: str) -> dict[str, str]:
    """This session's environment without what pytest adds (its settings module and the
    development key), on a database of its own, with a kept key of its own."""
    dropped = ("DJANGO_", "SECRET_KEY", "MARQUOIR_", "DATABASE_URL", "SQLITE_PATH", "ALLOWED_HOSTS")
    env = {key: value for key, value in os.environ.items() if not key.startswith(dropped)}
    return (
        env
        | {
            "SQLITE_PATH": str(tmp / "db.sqlite3"),
            "MARQUOIR_SECRET_KEY_FILE": str(tmp / "kept" / ".secret_key"),
            "PYTHONUNBUFFERED": "1",
            # One match per client and window: a second one tells which address was counted.
            "MATCH_CREATION_LIMIT": "1",
            "MATCH_CREATION_ADDRESS_LIMIT": "1",
        }
        | extra
    )


class Server:
    """A server process in a group of its own, its output in a file (nobody reads a pipe)."""

    def __init__(self, command: list[str], env: dict[str, str], port: int, log: Path) -> None:
        self.port, self.log = port, log
        with log.open("ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 (our own scripts, fixed arguments)
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not self.healthy():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"the server did not start:\n{self.output()}", pytrace=False)
            time.sleep(0.05)

    def healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


def make_run(tmp: Path, **extra: str) -> Server:
    """`HOST=127.0.0.1 make run` (the Makefile's recipe, past the install): DEBUG on."""
    port = free_port()
    command = [sys.executable, "scripts/run.py", "--host", "127.0.0.1", "--port", str(port)]
    return Server(command, production_environment(tmp, **extra), port, tmp / "run.log")


def make_serve_server(tmp: Path, **extra: str) -> Server:
    """The server scripts/serve.sh starts (gunicorn, marquoir/gunicorn_conf.py, DEBUG off), on a
    migrated database; without serve.sh's build steps, which write into the checkout."""
    port = free_port()
    env = production_environment(
        tmp, SECRET_KEY="a-key-for-this-test-" + "0123456789" * 4, MARQUOIR_DEBUG="0", **extra
    ) | {"BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "LOG_FORMAT": "json"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "marquoir/gunicorn_conf.py"]
    return Server([*command, "marquoir.asgi:application"], env, port, tmp / "serve.log")


@pytest.fixture(scope="module")
def run_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = make_run(tmp_path_factory.mktemp("make-run"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def serve_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = make_serve_server(tmp_path_factory.mktemp("make-serve"))
    yield server
    server.stop()


@pytest.fixture(params=["make run", "make serve"])
def server(request: pytest.FixtureRequest) -> Server:
    chosen: Server = request.getfixturevalue("run_server" if request.param == "make run" else "serve_server")
    return chosen


def test_make_run_signs_with_a_key_of_its_own_made_on_first_start(tmp_path: Path):
    server = make_run(tmp_path)
    try:
        created = httpx.post(server.url + "/api/v1/matches", json={"game": "pickomino", "players": ["Ada", "Ben"]})
        match_id, token = created.json()["id"], created.json()["edit_token"]
        # A token worked out offline with the public development key is refused…
        forged = edit_token_for(match_id, secret=DEVELOPMENT_SECRET_KEY)
        bust = {"type": "bust", "action_id": "forged-1"}
        refused = httpx.post(
            f"{server.url}/api/v1/matches/{match_id}/actions", json=bust, headers={"Authorization": f"Bearer {forged}"}
        )
        banner = server.output().split("Marquoir is starting.")[1].split("\n\n")[0]
    finally:
        server.stop()
    assert refused.status_code == 401
    # …since the server signs with the key it made on its first start, readable by this user only.
    kept = tmp_path / "kept" / ".secret_key"
    assert kept.stat().st_mode & 0o777 == 0o600
    assert token == edit_token_for(match_id, secret=kept.read_text().strip())
    assert "key" not in banner.lower()  # and the banner says nothing about it
    # The next start signs with the same key: the links handed out still work.
    again = make_run(tmp_path)
    try:
        state = httpx.post(
            f"{again.url}/api/v1/matches/{match_id}/actions", json=bust, headers={"Authorization": f"Bearer {token}"}
        )
    finally:
        again.stop()
    assert state.status_code == 200, state.text


@pytest.mark.parametrize("path", ["/en/", "/api/v1/matches/no-such-match", "/healthz", "/no-such-page"])
def test_a_foreign_host_never_gets_the_debug_page(server: Server, path: str):
    response = httpx.get(server.url + path, headers={"Host": FOREIGN})
    assert response.status_code == 400
    assert len(response.content) < 200
    assert not [mark for mark in DEBUG_PAGE_MARKS if mark in response.text]
    if path.startswith("/api/"):
        assert response.json() == {
            "error": {"code": "invalid", "message": "This server does not answer for that host name."}
        }
    else:
        assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert response.text == "Bad request: this server does not answer for that host name.\n"


def test_a_foreign_host_is_told_in_french_when_it_asks_for_french(server: Server):
    french = {"Host": FOREIGN, "Accept-Language": "fr-FR,fr;q=0.9"}
    page = httpx.get(server.url + "/fr/", headers=french)
    assert page.text == "Requête refusée\u00a0: ce serveur ne répond pas pour ce nom d’hôte.\n"
    api = httpx.post(server.url + "/api/v1/matches", headers=french, json={"game": "pickomino"})
    assert api.status_code == 400
    assert api.json()["error"]["message"] == "Ce serveur ne répond pas pour ce nom d’hôte."


def test_a_form_with_too_many_fields_on_the_api_is_refused_in_json(server: Server):
    fields = {f"f{number}": "x" for number in range(1200)}  # Django's limit: 1,000
    response = httpx.post(server.url + "/api/v1/matches", data=fields, headers={"Accept-Language": "fr"})
    assert response.status_code == 413
    assert response.json() == {
        "error": {"code": "too_large", "message": "Le formulaire a trop de champs\u00a0: 1000 au plus."}
    }


def test_a_form_too_large_for_django_on_the_api_is_refused_in_json(server: Server):
    response = httpx.post(server.url + "/api/v1/groups", data={"name": "x" * (2_621_440 + 10)})
    assert response.status_code == 413
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "too_large"


def test_x_forwarded_for_from_this_machine_does_not_pick_the_client_address(server: Server):
    # MATCH_CREATION_LIMIT=1 per client: if uvicorn took the address from the header, each
    # made-up address would get a new allowance.
    body = {"game": "pickomino", "players": ["Ada", "Ben"]}
    first = httpx.post(server.url + "/api/v1/matches", json=body, headers={"X-Forwarded-For": "203.0.113.7"})
    second = httpx.post(server.url + "/api/v1/matches", json=body, headers={"X-Forwarded-For": "203.0.113.8"})
    assert (first.status_code, second.status_code) == (201, 429), (first.text, second.text)


def test_behind_our_proxy_uvicorn_reads_the_forwarded_address(tmp_path: Path):
    # The other side: with MARQUOIR_BEHIND_PROXY=1 the proxy's header is believed (by uvicorn,
    # and by the rate limit), so two clients behind it have an allowance each.
    server = make_run(tmp_path, MARQUOIR_BEHIND_PROXY="1")
    try:
        body = {"game": "pickomino", "players": ["Ada", "Ben"]}
        statuses = [
            httpx.post(server.url + "/api/v1/matches", json=body, headers={"X-Forwarded-For": address}).status_code
            for address in ("203.0.113.7", "203.0.113.8")
        ]
    finally:
        server.stop()
    assert statuses == [201, 201]


def serve_sh(tmp: Path, **extra: str) -> str:
    """Start scripts/serve.sh until /healthz answers, kill -9 it as bench-load does; its output."""
    port = free_port()
    env = production_environment(tmp, SECRET_KEY="a-key-for-this-test-" + "0123456789" * 4, **extra)
    env |= {"BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
    log = tmp / f"serve-{port}.log"
    Server(["bash", "scripts/serve.sh"], env, port, log).stop()
    return log.read_text(errors="replace")


def test_a_restart_of_serve_sh_skips_the_build_and_deploy_steps(tmp_path: Path):
    checked = "System check identified no issues"  # `manage.py check`, the last deploy step
    serve_sh(tmp_path)  # the first start on this database deploys (and builds, if need be)
    again = serve_sh(tmp_path)
    assert checked not in again
    assert (tmp_path / "db.sqlite3").exists()
    changed = serve_sh(tmp_path, MATCH_CREATION_WINDOW_SECONDS="60")  # a setting changed: deploy again
    assert checked in changed
    fresh = tmp_path / "other"
    fresh.mkdir()
    assert checked in serve_sh(fresh)  # a new database is migrated before it is served
