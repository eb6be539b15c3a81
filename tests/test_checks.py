"""`manage.py check --deploy` with production settings is clean, and refuses the development
key; production never starts without a key of its own; behind TLS, the health check still
answers over HTTP and HSTS asks for preload only when told."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from marquoir.env import DEVELOPMENT_SECRET_KEY

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_KEY = "x" * 20 + "a-long-random-production-key-0123456789"


def deploy_check(**environment: str) -> subprocess.CompletedProcess[str]:
    # A fresh process as production starts it: nothing of this test session's environment
    # (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE while Playwright runs; pytest's
    # settings module and development key), and no kept key.
    dropped = {"SECRET_KEY", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env |= {
        "MARQUOIR_DEBUG": "0",
        "ALLOWED_HOSTS": "marquoir.example",
        "MARQUOIR_SECRET_KEY_FILE": "/nonexistent/marquoir/.secret_key",
    } | environment
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_deploy_check_is_clean_with_production_settings():
    result = deploy_check(SECRET_KEY=PRODUCTION_KEY, MARQUOIR_HTTPS="1")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_refuses_the_development_key():
    result = deploy_check(SECRET_KEY=DEVELOPMENT_SECRET_KEY, MARQUOIR_HTTPS="1")
    assert result.returncode != 0
    assert "marquoir.E001" in result.stderr


def test_without_any_key_production_refuses_to_start_and_says_how_to_give_one():
    result = deploy_check(MARQUOIR_HTTPS="1")
    assert result.returncode != 0
    assert "SECRET_KEY is not set and no key is kept in /nonexistent/marquoir/.secret_key" in result.stderr


def production_settings(code: str, **environment: str) -> str:
    """What ``code`` prints in a fresh process on production's settings behind TLS."""
    env = {key: value for key, value in os.environ.items() if key not in {"DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env |= {"MARQUOIR_DEBUG": "0", "MARQUOIR_HTTPS": "1", "SECRET_KEY": PRODUCTION_KEY} | environment
    return subprocess.run(  # noqa: S603 (this interpreter, our own code)
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "marquoir.settings", "ALLOWED_HOSTS": "marquoir.example"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


HTTP_HEALTH = (
    "from django.test import Client; "
    "r = Client().get('/healthz', HTTP_HOST='marquoir.example'); print(r.status_code, r.get('Location', ''))"
)


def test_the_health_check_over_plain_http_is_answered_not_redirected():
    # A load balancer checks the app over plain HTTP: a redirect to https is a failed check.
    assert production_settings(HTTP_HEALTH).startswith("200")
    page = production_settings(
        "from django.test import Client; r = Client().get('/en/', HTTP_HOST='marquoir.example'); "
        "print(r.status_code, r['Location'])"
    )
    assert page == "301 https://marquoir.example/en/"


HSTS = (
    "from django.test import Client; "
    "print(Client().get('/healthz', HTTP_HOST='marquoir.example', secure=True)['Strict-Transport-Security'])"
)


def test_hsts_asks_for_preload_only_when_the_operator_says_so():
    assert production_settings(HSTS) == "max-age=31536000; includeSubDomains"
    assert production_settings(HSTS, MARQUOIR_HSTS_PRELOAD="1") == "max-age=31536000; includeSubDomains; preload"
    # The deploy check stays clean either way.
    assert deploy_check(SECRET_KEY=PRODUCTION_KEY, MARQUOIR_HTTPS="1", MARQUOIR_HSTS_PRELOAD="1").returncode == 0
