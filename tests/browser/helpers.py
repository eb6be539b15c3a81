"""What browser tests share besides fixtures: screenshots, the axe scan, the browser's own log.

Everything a browser test writes goes under `test-output/` at the repository root (ignored by
git): `screenshots/<name>.png` and `axe/<name>.json`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import ConsoleMessage, Page, Request, Response

REPO_ROOT = Path(__file__).resolve().parents[2]
OUTPUT_DIR = REPO_ROOT / "test-output"
SCREENSHOTS_DIR = OUTPUT_DIR / "screenshots"
AXE_DIR = OUTPUT_DIR / "axe"

# What stops a test. Axe's "minor" and "moderate" findings stay in the JSON for a human to read.
BLOCKING_IMPACTS = frozenset({"serious", "critical"})
NODES_SHOWN = 3

ColorScheme = Literal["light", "dark", "no-preference"]


class MakePage(Protocol):
    """The `make_page` fixture: a new phone (browser context) on the test server, and its page."""

    def __call__(self, *, locale: str = ..., color_scheme: ColorScheme = ..., **context_options: Any) -> Page: ...


def file_name(name: str) -> str:
    """A name safe for a file on any system: test ids carry slashes, brackets and colons."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "unnamed"


def shoot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of the page (the whole scrolling page by default) as test-output/screenshots/<name>.png."""
    path = SCREENSHOTS_DIR / f"{file_name(name)}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


def assert_accessible(page: Page, name: str) -> dict[str, Any]:
    """Run axe on the page as it stands; fail on any serious or critical violation.

    The whole axe answer goes to test-output/axe/<name>.json, whatever the outcome; it is
    also returned, for a test that wants to look further.
    """
    results: dict[str, Any] = Axe().run(page).response
    path = AXE_DIR / f"{file_name(name)}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")

    blocking = [v for v in results["violations"] if v.get("impact") in BLOCKING_IMPACTS]
    if blocking:
        lines = [f"axe: {len(blocking)} serious or critical violation(s) on {page.url} (full answer: {path})"]
        lines += [_describe(violation) for violation in blocking]
        raise AssertionError("\n".join(lines))
    return results


def _describe(violation: dict[str, Any]) -> str:
    nodes = violation.get("nodes", [])
    lines = [f"- {violation['id']} [{violation.get('impact')}] {violation.get('help')} ({len(nodes)} element(s))"]
    for node in nodes[:NODES_SHOWN]:
        target = " ".join(str(part) for part in node.get("target", []))
        lines.append(f"    {target}: {node.get('html', '')[:160]}")
    if nodes:
        summary = " / ".join(line.strip() for line in str(nodes[0].get("failureSummary", "")).splitlines()[1:3])
        if summary:
            lines.append(f"    why: {summary}")
    if len(nodes) > NODES_SHOWN:
        lines.append(f"    … and {len(nodes) - NODES_SHOWN} more")
    lines.append(f"    {violation.get('helpUrl', '')}")
    return "\n".join(lines)


@dataclass
class BrowserLog:
    """What the browser reported while a page lived: console, uncaught errors, failed loads.

    Attach it before navigating: `log = BrowserLog.attach(page); page.goto(...)`.
    """

    console: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    @classmethod
    def attach(cls, page: Page) -> BrowserLog:
        log = cls()
        page.on("console", log._on_console)
        page.on("pageerror", lambda error: log.page_errors.append(f"{error.name}: {error.message}"))
        page.on("requestfailed", log._on_request_failed)
        page.on("response", log._on_response)
        return log

    def _on_request_failed(self, request: Request) -> None:
        self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def _on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.failed_requests.append(f"{response.request.method} {response.url}: {response.status}")

    def _on_console(self, message: ConsoleMessage) -> None:
        self.console.append(f"{message.type}: {message.text} ({message.location.get('url', '')})")

    def mentioning(self, text: str) -> list[str]:
        """Every console line and page error containing the text, case-insensitively."""
        needle = text.casefold()
        return [line for line in [*self.console, *self.page_errors] if needle in line.casefold()]

    def errors(self) -> list[str]:
        """Console errors and uncaught page errors."""
        return [line for line in self.console if line.startswith("error:")] + self.page_errors
