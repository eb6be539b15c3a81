"""Small readers for settings taken from the environment (as healthchecks does), and the
secret key `make run` and `make serve` keep for themselves.

A value that cannot be read stops the start with ``ImproperlyConfigured`` naming the
variable: ``MARQUOIR_HTTPS=ture`` read silently as off would serve without TLS settings.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

# Public on purpose, for tests only (tests/settings.py puts it in pytest's environment):
# `check --deploy` refuses it (marquoir.checks) and nothing else ever falls back to it.
DEVELOPMENT_SECRET_KEY = "marquoir-dev-only-key-do-not-use-in-production-3f9a1c7e5b2d8046"  # noqa: S105

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    """The variable's text, or ``default`` when it is unset."""
    return os.environ.get(name, default)


def parse_bool(name: str, value: str) -> bool:
    """``value`` (of the variable ``name``) as a yes or a no: 1/true/yes/on or 0/false/no/off,
    any case; anything else is refused, never guessed."""
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is neither on nor off: use one of {', '.join(sorted(TRUE_WORDS | FALSE_WORDS))}."
    )


def env_bool(name: str, default: bool = False) -> bool:
    """True for 1/true/yes/on, False for 0/false/no/off (any case); ``default`` when unset or
    empty; ImproperlyConfigured for anything else (a typo is not a no)."""
    value = os.environ.get(name, "")
    return default if not value.strip() else parse_bool(name, value)


def env_int(name: str, default: int) -> int:
    """The variable as a whole number, or ``default`` when unset or empty."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated variable as a list of non-empty, trimmed items."""
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def secret_key_file() -> Path:
    """Where `make run` and `make serve` keep their key: ``MARQUOIR_SECRET_KEY_FILE``, else
    ``.secret_key`` at the top of the checkout (ignored by git)."""
    return Path(env("MARQUOIR_SECRET_KEY_FILE") or BASE_DIR / ".secret_key")


def kept_secret_key(path: Path | None = None) -> str:
    """The key kept in ``path`` (``secret_key_file()``), or "" if there is none."""
    try:
        return (path or secret_key_file()).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""


def keep_secret_key(path: Path | None = None) -> str:
    """The key kept in ``path``, made on the first call (512 random bits, readable by this
    user only) and the same on every later one: tokens signed today still verify after a
    restart. Two processes starting at once agree: the key appears whole or not at all, and the
    later one reads the first one's."""
    path = path or secret_key_file()
    if key := kept_secret_key(path):
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = secrets.token_urlsafe(64)
    # Written whole under a name of its own, then linked into place: os.link fails if the
    # key exists, so a start never reads a half-written key nor overwrites another's.
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as kept:
            kept.write(fresh + "\n")
        os.link(draft, path)
    except FileExistsError:  # made by another start meanwhile: that one is the key
        if key := kept_secret_key(path):
            return key
        raise ImproperlyConfigured(f"{path} is empty: remove it and start again to make a new key.") from None
    finally:
        draft.unlink(missing_ok=True)
    return fresh


if __name__ == "__main__":  # scripts/serve.sh: make the key once, print nothing
    keep_secret_key()
