"""`manage.py check --deploy` with production settings is clean, and refuses the development key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def deploy_check(**environment: str) -> subprocess.CompletedProcess[str]:
    # A fresh process as production starts it: nothing of this test session's environment
    # (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE while Playwright runs).
    dropped = {"SECRET_KEY", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env |= {"MARQUOIR_DEBUG": "0", "ALLOWED_HOSTS": "marquoir.example"} | environment
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_deploy_check_is_clean_with_production_settings():
    result = deploy_check(SECRET_KEY="x" * 20 + "a-long-random-production-key-0123456789", MARQUOIR_HTTPS="1")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_refuses_the_development_key():
    result = deploy_check(MARQUOIR_HTTPS="1")
    assert result.returncode != 0
    assert "marquoir.E001" in result.stderr
