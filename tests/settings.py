"""The settings pytest runs with (pyproject's DJANGO_SETTINGS_MODULE): the project's own,
signed with the public development key.

marquoir/settings.py has no default key: outside tests, a server signs with SECRET_KEY or the
key `make run` / `make serve` keep, never a public one. The key goes into the environment,
not only into these settings, so that the servers the tests start (the browser tests', the
subprocesses that read the settings) sign with it too; a test that wants production's
behaviour starts its process without it (tests/test_checks.py).
"""

from __future__ import annotations

import os

from marquoir.env import DEVELOPMENT_SECRET_KEY

os.environ.setdefault("SECRET_KEY", DEVELOPMENT_SECRET_KEY)

from marquoir.settings import *  # noqa: F403
