"""Browser fixtures: a real server process on a real database, Debian's Chromium at phone size.

- `server_url` (session): base URL of a uvicorn process serving Marquoir on its own SQLite
  file, migrated beforehand, DEBUG off as in production. Not named `live_server`: pytest-django
  owns that name, and its autouse helper would open the Django test database for any test
  asking for it and treat the URL as its own server object.
- `browser` (session): Chromium from /usr/bin/chromium, headless; missing Chromium fails.
- `make_page(locale=..., color_scheme=..., **context_options)`: each call opens a new browser
  context (a phone of its own: cookies, storage) at 390×844 and returns its page, with
  `base_url` set so `page.goto("/fr/")` works. Call it twice for two phones on one match.
- `page`: `make_page()` with the defaults (en-US, light).

A failing browser test leaves a full-page screenshot of every page it opened in
test-output/screenshots/FAILED-<test id>-<n>.png.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from .helpers import REPO_ROOT, ColorScheme, MakePage, file_name, shoot

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
HOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 30.0
SHUTDOWN_TIMEOUT_S = 10.0

# Pages opened by the running test, for the screenshot taken when it fails.
_OPEN_PAGES = pytest.StashKey[list[Page]]()


# --- the server -------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _answers_health(port: int) -> bool:
    connection = http.client.HTTPConnection(HOST, port, timeout=1)
    try:
        connection.request("GET", "/healthz")
        with connection.getresponse() as response:
            response.read()
            return response.status == 200
    except OSError:
        return False
    finally:
        connection.close()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=SHUTDOWN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Migrate a fresh SQLite file, serve it with uvicorn, yield http://127.0.0.1:<port>."""
    workdir = tmp_path_factory.mktemp("server")
    env = {
        **os.environ,
        "SQLITE_PATH": str(workdir / "db.sqlite3"),
        "MARQUOIR_DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        # Each test is a new phone (a fresh browser context) on one address: a session opens
        # more new phones in ten minutes than the address's allowance for new devices gives a
        # café (tests/tables/test_creation_limits.py holds the allowance itself).
        "MATCH_CREATION_LIMIT": "100000",
        "MATCH_CREATION_ADDRESS_LIMIT": "100000",
        # Likewise the groups' budgets: one address imports and reads for every test.
        "GROUP_IMPORT_LIMIT": "100000",
        "GROUP_READ_LIMIT": "100000",
        "GROUP_EXPORT_LIMIT": "100000",
    }
    # Set in this process only while Playwright runs (see `playwright` below); not the server's business.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if migrate.returncode != 0:
        pytest.fail(f"migrate failed ({migrate.returncode}):\n{migrate.stdout}\n{migrate.stderr}", pytrace=False)

    port = _free_port()
    log_path = workdir / "server.log"
    # The server writes to a file, not a pipe: nobody reads a pipe during the tests, and a
    # full pipe would freeze the server. (S603: our own arguments, no shell.)
    with log_path.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "uvicorn", "marquoir.asgi:application"]
            + ["--host", HOST, "--port", str(port), "--log-level", "warning"],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _answers_health(port):
            exited = process.poll() is not None
            if exited or time.monotonic() > deadline:
                _stop(process)
                what = (
                    f"exited with code {process.returncode} before GET /healthz answered 200"
                    if exited
                    else f"did not answer 200 to GET /healthz within {STARTUP_TIMEOUT_S:.0f} s"
                )
                output = log_path.read_text(errors="replace")
                pytest.fail(f"the server {what}; its output ({log_path}):\n{output}", pytrace=False)
            time.sleep(0.1)
        yield f"http://{HOST}:{port}"
    finally:
        _stop(process)


# --- the browser ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """Playwright's driver, for the session.

    Playwright's sync API parks a running asyncio loop in this thread while it is alive, and
    Django then refuses ORM calls from other tests of the session (SynchronousOnlyOperation)
    as if they ran inside a coroutine. They do not: the loop only runs while a Playwright call
    waits. So Django's check is lifted for exactly the lifetime of the driver, and restored after.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as driver:
            yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless. Never a downloaded browser: without /usr/bin/chromium, fail."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        found = shutil.which("chromium") or "nothing on PATH either"
        pytest.fail(
            f"browser tests need Debian's Chromium at {CHROMIUM} (found: {found}); "
            "install it with `apt-get install chromium` (.ci/run does)",
            pytrace=False,
        )
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def make_page(browser: Browser, server_url: str, request: pytest.FixtureRequest) -> Iterator[MakePage]:
    """A factory of phones: each call is a new context (its own cookies), at 390×844, on the server."""
    contexts: list[BrowserContext] = []
    pages = request.node.stash.setdefault(_OPEN_PAGES, [])

    def make(*, locale: str = "en-US", color_scheme: ColorScheme = "light", **context_options: Any) -> Page:
        options = {**PHONE, "base_url": server_url, "locale": locale, "color_scheme": color_scheme}
        context = browser.new_context(**{**options, **context_options})
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(make_page: MakePage) -> Page:
    """One phone, in English, light colour scheme."""
    return make_page()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """When a browser test fails, photograph every page it opened before the contexts close."""
    report: pytest.TestReport = yield
    if report.when == "call" and report.failed:
        open_pages: list[Page] = item.stash.get(_OPEN_PAGES, [])
        for index, open_page in enumerate(open_pages):
            if open_page.is_closed():
                continue
            try:
                path = shoot(open_page, f"FAILED-{file_name(item.nodeid)}-{index}")
            except PlaywrightError as error:
                report.sections.append(("screenshot", f"could not photograph page {index}: {error}"))
            else:
                report.sections.append(("screenshot", f"page {index} ({open_page.url}): {path}"))
    return report
