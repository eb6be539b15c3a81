"""Screenshots of every table screen of a checkout, to compare a change's screens before and after.

    .venv/bin/python scripts/screens.py /path/to/checkout /tmp/screens/after [--only 'tarot-*']
    .venv/bin/python scripts/screens_compare.py /tmp/screens/before /tmp/screens/after

Given a checkout (a git worktree of any commit) and an output directory, this:

1. migrates a fresh SQLite file in a temporary directory with the checkout's own
   ``manage.py migrate`` and serves it with uvicorn on a free port, DEBUG off, as the browser
   tests do (tests/browser/conftest.py); ``cwd`` and ``PYTHONPATH`` are the checkout, so its
   ``marquoir`` package is the one imported (checked before anything is served), not the one
   this interpreter's virtualenv installs in editable mode;
2. makes, through the JSON API only (a contract every commit keeps: docs api-v1.md), the same
   matches every time: for Pickomino, Yahtzee, French Tarot and the score sheet, one just
   started, one mid-game and one over (played to the end with fixed legal actions), four
   players with fixed names; and a group with the finished matches and one in progress;
3. photographs with Playwright driving Debian's Chromium (phones as the browser tests make
   them: 2× pixels, touch) each table as its keeper (the "keep score too" link, ``#key=``,
   then the device cookie, as the app does) and as a watcher, in English and French, at
   390×844 (and 1024×1366 mid-game and over), full page; a few entry states of the pads;
   each game's set-up page, fresh and as a rematch; the home page, "my matches" and the
   group's pages;
4. stops the server.

Each shot is ``<out>/<game>-<state>-<role>-<lang>-<w>x<h>.png``, the whole page (the window
made as tall as the page, so that the bar fixed under the thumb sits at its end, not over
the middle); a table at phone size also has ``…-screen.png``, the first screen as a phone
shows it; ``<out>/index.json`` lists them with the address shot. Two runs give the same
pixels: animations are off, the service worker is blocked (it would serve later visits from
its cache), the QR codes are hidden, their frame kept (they encode the random match ids),
dates shown on a page are replaced by a fixed text (they are the time of the run), and a
shot waits for the screen-awake switch to settle.

One server and one browser at a time: it is meant for a loaded machine. It writes nothing
into the checkout.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

HOST = "127.0.0.1"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = (390, 844)
TABLET = (1024, 1366)
LANGUAGES = {"en": "en-US", "fr": "fr-FR"}
PLAYERS = ["Ada", "Bérénice", "Cy", "Dmitri"]
GAMES = ("pickomino", "yahtzee", "tarot", "sheet")
STATES = ("start", "mid", "over")
STARTUP_TIMEOUT_S = 90.0
REQUEST_TIMEOUT_S = 30.0
SETTLE_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 60_000

# Every budget raised: the harness is one address making many matches and groups quickly
# (the browser tests' server does the same).
SERVER_SETTINGS = {
    "MARQUOIR_DEBUG": "0",
    "PYTHONUNBUFFERED": "1",
    "DJANGO_SETTINGS_MODULE": "marquoir.settings",
    # Fixed, so that nothing signed depends on a key file of the checkout; never a real key.
    "SECRET_KEY": "screens-harness-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    "MATCH_CREATION_LIMIT": "100000",
    "MATCH_CREATION_ADDRESS_LIMIT": "100000",
    "MATCH_ACTION_LIMIT": "100000",
    "MATCH_ACTION_ADDRESS_LIMIT": "100000",
    "MARQUOIR_STREAMS_PER_ADDRESS": "1000",
    "GROUP_IMPORT_LIMIT": "100000",
    "GROUP_READ_LIMIT": "100000",
    "GROUP_EXPORT_LIMIT": "100000",
}

# Dates as the pages print them (SHORT_DATE_FORMAT / SHORT_DATETIME_FORMAT in English and
# French: "05/17/2026 3:04 p.m.", "17/05/2026 15:04", "05/17/2026 midnight"), replaced by a
# fixed text of the same shape before a shot: they are the time of the run.
FREEZE_DATES_JS = r"""() => {
  const date = /\b\d{1,2}\/\d{1,2}\/\d{4}(?:,?\s(?:\d{1,2}(?::\d{2})?(?:\s?[ap]\.m\.)?|midnight|noon|minuit|midi))?/g;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let replaced = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    const fixed = text.replace(date, (found) => {
      replaced += 1;
      return found.length > 10 ? "01/02/2000 12:34" : "01/02/2000";
    });
    if (fixed !== text) node.nodeValue = fixed;
  }
  return replaced;
}"""

# The screen-awake switch (tables/_awake.html) shows its state once awake.js has asked the
# browser for a wake lock: wait until it has, or until it says why it cannot.
AWAKE_SETTLED_JS = """() => Array.from(document.querySelectorAll('.awake')).every(
  (box) => !box.hidden && (box.dataset.state !== undefined))"""


# --- the server -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def server_environment(checkout: Path, database: Path) -> dict[str, str]:
    """This process's environment for the checkout's server on ``database``: without
    ``DATABASE_URL`` (a PostgreSQL pass would win over SQLite) nor Playwright's async switch."""
    environment = {**os.environ, **SERVER_SETTINGS, "SQLITE_PATH": str(database), "PYTHONPATH": str(checkout)}
    environment.pop("DATABASE_URL", None)
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return environment


def _check_imports_checkout(python: str, checkout: Path, environment: dict[str, str]) -> None:
    """Refuse to go on if the checkout's server would import another tree's ``marquoir``."""
    found = subprocess.run(  # noqa: S603 (our own arguments, no shell)
        [python, "-c", "import marquoir; print(marquoir.__file__)"],
        cwd=checkout,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(checkout.resolve()):
        raise SystemExit(f"the server would import marquoir from {found}, not from {checkout}")


@contextlib.contextmanager
def serving(checkout: Path, python: str, workdir: Path) -> Iterator[str]:
    """The checkout's migrated server on a fresh SQLite file in ``workdir``: yields its base URL."""
    environment = server_environment(checkout, workdir / "db.sqlite3")
    _check_imports_checkout(python, checkout, environment)
    subprocess.run(  # noqa: S603 (our own arguments, no shell)
        [python, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=checkout,
        env=environment,
        check=True,
        timeout=300,
    )
    port = _free_port()
    log_path = workdir / "server.log"
    command = [python, "-m", "uvicorn", "marquoir.asgi:application", "--host", HOST, "--port", str(port)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603 (our own arguments, no shell)
            [*command, "--log-level", "warning"], cwd=checkout, env=environment, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _answers_health(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start; its output:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield f"http://{HOST}:{port}"
    finally:
        # Stopped by its own id; killed if it does not end in time (live streams held open).
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _answers_health(port: int) -> bool:
    connection = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        with connection.getresponse() as response:
            response.read()
            return response.status == 200
    except OSError:
        return False
    finally:
        connection.close()


# --- the API --------------------------------------------------------------------------------


@dataclass
class Api:
    """The JSON API of the server at ``base_url``: every answer must be the one expected."""

    base_url: str

    def call(self, method: str, path: str, body: object = None, *, token: str | None = None, status: int = 200) -> Any:
        host, port = self.base_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=REQUEST_TIMEOUT_S)
        headers = {"Accept-Language": "en", **({"Authorization": f"Bearer {token}"} if token else {})}
        payload = None if body is None else json.dumps(body).encode()
        if payload is not None:
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=payload, headers=headers)
            with connection.getresponse() as response:
                text = response.read().decode()
                if response.status != status:
                    raise SystemExit(f"{method} {path} {body!r}: {response.status} (wanted {status}): {text[:500]}")
                return json.loads(text) if text else None
        finally:
            connection.close()


@dataclass
class Made:
    """A match made through the API: its game, how far it was played, its two capabilities."""

    game: str
    state: str
    id: str
    token: str
    seq: int
    over: bool


@dataclass
class MatchPlan:
    """How one game's matches are made: its creation body and a player of its actions.

    ``next_action(state)`` gives the next action for the match as it stands (``None``: stop), so
    a match can be played to its end by rules written against the state, always the same.
    """

    game: str
    options: dict[str, Any]
    next_action: Callable[[dict[str, Any]], dict[str, Any] | None]
    mid_actions: int


def _pickomino_action(state: dict[str, Any]) -> dict[str, Any] | None:
    """An opening with a steal and two busts (one returning a tile), then takes until the grill
    is empty: the lowest face-up tile on even turns, the highest on odd ones."""
    opening: list[dict[str, Any]] = [
        {"type": "take", "total": 25, "worm": True, "from": "grill"},
        {"type": "take", "total": 27, "worm": True, "from": "grill"},
        {"type": "bust", "reason": "no_worm"},
        {"type": "take", "dice": {"worm": 2, "5": 3, "3": 1}, "from": "grill"},  # 5+5+10+3 = 23
        {"type": "take", "total": 27, "worm": True, "from": 1},  # Ada steals Bérénice's 27
        {"type": "take", "total": 30, "worm": True, "from": "grill"},
        {"type": "take", "total": 33, "worm": True, "from": "grill"},
        {"type": "bust"},  # Dmitri's 23 goes back, the 36 is turned down
    ]
    seq: int = state["seq"]
    if state["over"]:
        return None
    if seq < len(opening):
        return opening[seq]
    face_up = [tile["tile"] for tile in state["grill"] if tile["face"] == "up"]
    tile = face_up[0] if seq % 2 == 0 else face_up[-1]
    return {"type": "take", "total": tile, "worm": True, "from": "grill"}


YAHTZEE_BOXES = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)


def _yahtzee_dice(box: str, player: int) -> list[int]:
    """Dice that score in the box, differently for each player; five alike only in the
    Yahtzee box (elsewhere a second Yahtzee would bring the joker rules in)."""
    if box in YAHTZEE_BOXES[:6]:
        face = YAHTZEE_BOXES.index(box) + 1
        alike = 1 + (player + face) % 4  # 1 to 4 of the face
        others = [6 if face != 6 else 5, 2 if face != 2 else 3, 4 if face != 4 else 1, 1 if face != 1 else 2]
        return [face] * alike + others[: 5 - alike]
    lower = {
        "three_of_a_kind": [[4, 4, 4, 2, 5], [6, 6, 6, 1, 3], [2, 2, 2, 3, 4], [1, 2, 3, 5, 6]],
        "four_of_a_kind": [[6, 6, 6, 6, 1], [3, 3, 3, 3, 5], [1, 2, 2, 4, 5], [5, 5, 5, 5, 2]],
        "full_house": [[3, 3, 5, 5, 5], [2, 2, 2, 6, 6], [1, 1, 4, 4, 4], [1, 2, 3, 4, 4]],
        "small_straight": [[1, 2, 3, 4, 6], [3, 4, 5, 6, 6], [2, 3, 4, 5, 5], [1, 1, 3, 5, 6]],
        "large_straight": [[2, 3, 4, 5, 6], [1, 2, 3, 4, 5], [1, 2, 3, 4, 6], [2, 3, 4, 5, 6]],
        "yahtzee": [[5, 5, 5, 5, 5], [1, 2, 3, 4, 4], [6, 6, 6, 6, 6], [2, 2, 3, 3, 4]],
        "chance": [[6, 5, 4, 6, 3], [1, 2, 1, 3, 2], [6, 6, 5, 5, 4], [3, 4, 2, 5, 1]],
    }
    return lower[box][player]


def _yahtzee_action(state: dict[str, Any]) -> dict[str, Any] | None:
    """Each player fills the boxes in the sheet's order, one a turn, with the dice above."""
    if state["over"]:
        return None
    player = state["current"]
    box = YAHTZEE_BOXES[state["round"] - 1]
    return {"type": "score", "box": box, "dice": _yahtzee_dice(box, player)}


TAROT_ACTIONS: list[dict[str, Any]] = [
    {"type": "deal", "taker": 0, "contract": "garde", "bouts": 2, "points": 47, "petit_au_bout": "taker"},
    {"type": "pass"},
    {
        "type": "deal",
        "taker": 2,
        "contract": "petite",
        "bouts": 1,
        "points": 38,
        "poignees": [{"side": "defence", "size": "simple"}],
    },
    {"type": "deal", "taker": 1, "contract": "garde_sans", "bouts": 3, "points": 60},
    {"type": "deal", "taker": 3, "contract": "garde_contre", "bouts": 2, "points": 41, "chelem": None},
]


def _tarot_action(state: dict[str, Any]) -> dict[str, Any] | None:
    """A made garde, a pass, a failed petite with a handful, a garde sans, a garde contre:
    four scored deals, which the option ends the game on."""
    seq: int = state["seq"]
    if state["over"] or seq >= len(TAROT_ACTIONS):
        return None
    return TAROT_ACTIONS[seq]


SHEET_ROUNDS = [[12, -3, 40, 7], [0, 25, 11, 9], [31, 4, -8, 16], [5, 5, 22, 0], [18, 9, 3, 27]]


def _sheet_action(state: dict[str, Any]) -> dict[str, Any] | None:
    """Five rounds of fixed scores, negative ones included; the option ends it after the fifth."""
    if state["over"] or state["seq"] >= len(SHEET_ROUNDS):
        return None
    return {"type": "round", "scores": SHEET_ROUNDS[state["seq"]]}


PLANS = {
    "pickomino": MatchPlan("pickomino", {}, _pickomino_action, mid_actions=8),
    "yahtzee": MatchPlan("yahtzee", {}, _yahtzee_action, mid_actions=22),
    "tarot": MatchPlan("tarot", {"deals": 4}, _tarot_action, mid_actions=3),
    "sheet": MatchPlan("sheet", {"title": "Skyjo", "lowest_wins": True, "rounds": 5}, _sheet_action, mid_actions=2),
}


def make_match(api: Api, plan: MatchPlan, state_name: str) -> Made:
    """One match of the plan, played as far as ``state_name`` says: not at all, part way, or to its end."""
    body = {"game": plan.game, "players": PLAYERS, "first": 0}
    if plan.options:
        body["options"] = plan.options
    created = api.call("POST", "/api/v1/matches", body, status=201)
    match_id, token, state = created["id"], created["edit_token"], created["state"]
    wanted = {"start": 0, "mid": plan.mid_actions, "over": None}[state_name]
    while wanted is None or state["seq"] < wanted:
        action = plan.next_action(state)
        if action is None:
            break
        action = {**action, "expected_seq": state["seq"]}
        state = api.call("POST", f"/api/v1/matches/{match_id}/actions", action, token=token)
    if state_name == "over" and not state["over"]:
        raise SystemExit(f"the {plan.game} match did not end: {json.dumps(state)[:800]}")
    if state_name == "mid" and (state["over"] or state["seq"] != wanted):
        raise SystemExit(f"the {plan.game} match is not mid-game: {json.dumps(state)[:800]}")
    return Made(plan.game, state_name, match_id, token, state["seq"], state["over"])


@dataclass
class Group:
    id: str
    token: str


def make_group(api: Api, matches: list[Made]) -> Group:
    """A group of the four players with every finished match and one in progress, in a fixed order."""
    created = api.call("POST", "/api/v1/groups", {"name": "Thursday night", "players": PLAYERS}, status=201)
    group = Group(created["id"], created["edit_token"])
    for made in matches:
        body = {"match_id": made.id, "match_edit_token": made.token}
        api.call("POST", f"/api/v1/groups/{group.id}/matches", body, token=group.token, status=201)
    return group


# --- the shots ------------------------------------------------------------------------------


@dataclass
class Shot:
    """One page to photograph: its file name's parts (the role says which phone opens it), its
    address, the window's size, and whether the first screen is shot on its own too."""

    subject: str
    state: str
    role: str
    lang: str
    path: str
    size: tuple[int, int] = PHONE
    first_screen: bool = False

    @property
    def name(self) -> str:
        width, height = self.size
        return f"{self.subject}-{self.state}-{self.role}-{self.lang}-{width}x{height}"


@dataclass
class Phones:
    """The browser contexts a run uses, made on first use: a keeper per language (which has
    joined every match and the group), and fresh ones for watchers and visitors."""

    browser: Browser
    base_url: str
    joins: list[str]
    keepers: dict[str, BrowserContext] = field(default_factory=dict)

    def new_context(self, lang: str) -> BrowserContext:
        context = self.browser.new_context(
            viewport={"width": PHONE[0], "height": PHONE[1]},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            base_url=self.base_url,
            locale=LANGUAGES[lang],
            color_scheme="light",
            reduced_motion="reduce",
            service_workers="block",  # a worker would serve later visits from its copy
        )
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        return context

    def keeper(self, lang: str) -> BrowserContext:
        """The phone that keeps score, as the app makes one: it opens each "keep score too"
        link (the token after ``#key=``), join.js posts it and the device cookie is set."""
        if lang not in self.keepers:
            context = self.new_context(lang)
            page = context.new_page()
            for join in self.joins:
                page.goto(f"/{lang}{join}")
                page.wait_for_url(re.compile(r"/(tables|groups)/[^/]+/(\?.*)?$"))
            page.close()
            self.keepers[lang] = context
        return self.keepers[lang]

    def close(self) -> None:
        for context in self.keepers.values():
            context.close()


def settle(page: Page) -> None:
    """Wait for what a page draws after it loads, and pin what changes from run to run."""
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(AWAKE_SETTLED_JS, timeout=SETTLE_TIMEOUT_MS)
    page.evaluate(FREEZE_DATES_JS)
    # The QR codes encode the match's random id: hidden, their frame kept (a mask would
    # paint boxes even where a closed <details> hides them).
    # Set through the CSSOM: the app's CSP refuses an added <style>.
    page.evaluate("() => document.querySelectorAll('.qr-box svg').forEach((qr) => { qr.style.visibility = 'hidden'; })")
    _next_frames(page)


def _next_frames(page: Page) -> None:
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def _picture(page: Page, path: Path, *, full_page: bool) -> None:
    page.screenshot(path=str(path), full_page=full_page, animations="disabled", caret="hide")


def shoot_page(page: Page, out: Path, shot: Shot) -> list[str]:
    """The first screen as the phone shows it (tables only: ``…-screen.png``), then the whole
    page. A screenshot of a page longer than the window would draw the bar fixed under the
    thumb half-way down, over the page: the window is made as tall as the page instead (no
    style of the app depends on the window's height), so the bar sits at its end."""
    width, height = shot.size
    files = []
    if shot.first_screen:
        files.append(f"{shot.name}-screen.png")
        _picture(page, out / files[-1], full_page=False)
    for _attempt in range(4):  # the page may grow once more as the window does: measured again
        wanted = max(height, int(page.evaluate("() => document.documentElement.scrollHeight")))
        if page.viewport_size == {"width": width, "height": wanted}:
            break
        page.set_viewport_size({"width": width, "height": wanted})
        _next_frames(page)
    files.append(f"{shot.name}.png")
    _picture(page, out / files[-1], full_page=True)
    return files


def shoot(phones: Phones, shot: Shot, out: Path) -> dict[str, Any]:
    """Open the shot's address on its phone at its size and save the picture; what was shot."""
    context = phones.keeper(shot.lang) if shot.role == "editor" else phones.new_context(shot.lang)
    page = context.new_page()
    try:
        page.set_viewport_size({"width": shot.size[0], "height": shot.size[1]})
        response = page.goto(shot.path)
        status = response.status if response else None
        if status != 200:
            raise SystemExit(f"{shot.name}: {shot.path} answered {status}")
        settle(page)
        files = shoot_page(page, out, shot)
        return {"name": shot.name, "files": files, "path": shot.path, "url": page.url, "title": page.title()}
    finally:
        page.close()
        if shot.role != "editor":
            context.close()


def french_path(phones: Phones, english_path: str) -> str:
    """The French address of an English page whose path is translated (the page's own
    ``hreflang`` alternate link says it), query kept."""
    context = phones.new_context("en")
    page = context.new_page()
    try:
        page.goto(english_path)
        href = page.locator('link[rel="alternate"][hreflang="fr"]').get_attribute("href") or ""
    finally:
        context.close()
    path = re.sub(r"^https?://[^/]+", "", href)
    if not path.startswith("/fr/"):
        raise SystemExit(f"no French address for {english_path} (found {href!r})")
    query = english_path.partition("?")[2]
    return path if not query or "?" in path else f"{path}?{query}"


def plan_shots(matches: dict[tuple[str, str], Made], group: Group, phones: Phones) -> list[Shot]:
    """Every shot of a run, in the order taken."""
    shots: list[Shot] = []
    for lang in LANGUAGES:
        for game in GAMES:
            for state in STATES:
                made = matches[game, state]
                table = f"/{lang}/tables/{made.id}/"
                # Wide too once the grids are filled: at phone size they scroll sideways, and a
                # shot holds only their first columns.
                sizes = [PHONE, TABLET] if state != "start" else [PHONE]
                for role in ("editor", "watcher"):
                    shots += [Shot(game, state, role, lang, table, size, size == PHONE) for size in sizes]
            # A pad part way through a turn (its address carries the entry, as the page's own
            # links do): the keeper's only.
            mid = matches[game, "mid"]
            table, seq = f"/{lang}/tables/{mid.id}/", mid.seq
            entries = {
                "pickomino": [("mid_total", f"?seq={seq}&total=27&worm=1"), ("mid_dicepad", "?pad=dice")],
                "yahtzee": [("mid_dice", f"?seq={seq}&dice=33555&roll=3")],
                "tarot": [("mid_deal", f"?seq={seq}&taker=1&contract=garde&bouts=2&counted=taker&points=47")],
                "sheet": [],
            }[game]
            shots += [Shot(game, state, "editor", lang, table + query) for state, query in entries]
    for lang in LANGUAGES:
        for game in GAMES:
            setup = f"/en/tables/new/{game}/"
            rematch = f"{setup}?from={matches[game, 'over'].id}"
            if lang == "fr":
                setup, rematch = french_path(phones, setup), french_path(phones, rematch)
            shots.append(Shot(game, "setup", "visitor", lang, setup))
            shots.append(Shot(game, "rematch", "editor", lang, rematch))
        mine = "/en/tables/" if lang == "en" else french_path(phones, "/en/tables/")
        shots += [
            Shot("home", "page", "visitor", lang, f"/{lang}/"),
            Shot("home", "page", "editor", lang, f"/{lang}/"),
            Shot("mine", "page", "editor", lang, mine),
            Shot("group", "history", "editor", lang, f"/{lang}/groups/{group.id}/"),
            Shot("group", "history", "watcher", lang, f"/{lang}/groups/{group.id}/"),
            Shot("group", "stats", "watcher", lang, f"/{lang}/groups/{group.id}/stats/"),
        ]
    return shots


def run(checkout: Path, out: Path, python: str, only: str | None) -> int:
    """Serve the checkout, make its matches, take every shot (or those matching ``only``)."""
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="marquoir-screens-") as workdir,
        serving(checkout, python, Path(workdir)) as base_url,
    ):
        api = Api(base_url)
        matches = {(game, state): make_match(api, PLANS[game], state) for game in GAMES for state in STATES}
        group_matches = [matches[game, "over"] for game in GAMES] + [matches["pickomino", "mid"]]
        group = make_group(api, group_matches)
        joins = [f"/tables/{made.id}/join/#key={made.token}" for made in matches.values()]
        joins.append(f"/groups/{group.id}/join/#key={group.token}")
        index: list[dict[str, Any]] = []
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            phones = Phones(browser, base_url, joins)
            try:
                shots = plan_shots(matches, group, phones)
                chosen = [shot for shot in shots if only is None or fnmatch.fnmatch(shot.name, only)]
                for number, shot in enumerate(chosen, 1):
                    print(f"[{number}/{len(chosen)}] {shot.name}  {shot.path}", flush=True)
                    index.append(shoot(phones, shot, out))
            finally:
                phones.close()
                browser.close()
        server_log = (Path(workdir) / "server.log").read_text(errors="replace")
    (out / "index.json").write_text(json.dumps(index, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if server_log.strip():
        (out / "server.log").write_text(server_log, encoding="utf-8")
        print(f"the server wrote to its log: {out / 'server.log'}")
    pictures = sum(len(entry["files"]) for entry in index)
    print(f"{pictures} screenshots of {len(index)} pages in {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("checkout", type=Path, help="the checkout whose server is photographed")
    parser.add_argument("out", type=Path, help="where the PNG files go (made if missing)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the server")
    parser.add_argument("--only", help="only the shots whose name matches this pattern (fnmatch)")
    arguments = parser.parse_args(argv)
    checkout = arguments.checkout.resolve()
    if not (checkout / "manage.py").is_file():
        parser.error(f"{checkout} has no manage.py")
    return run(checkout, arguments.out.resolve(), arguments.python, arguments.only)


if __name__ == "__main__":
    sys.exit(main())
