"""Settings from the environment: a yes/no or a number that cannot be read stops the start,
naming the variable, rather than being taken for a default (`MARQUOIR_HTTPS=ture` read as
off served without TLS settings, silently)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from marquoir.env import env_bool, env_int, keep_secret_key, kept_secret_key

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("value", "read"),
    [("1", True), ("true", True), ("Yes", True), (" ON ", True), ("0", False), ("false", False), ("No", False)],
)
def test_the_known_words_read_as_yes_or_no(monkeypatch, value, read):
    monkeypatch.setenv("MARQUOIR_TEST_FLAG", value)
    assert env_bool("MARQUOIR_TEST_FLAG", not read) is read


@pytest.mark.parametrize("value", ["", "  "])
def test_unset_or_empty_is_the_default(monkeypatch, value):
    monkeypatch.setenv("MARQUOIR_TEST_FLAG", value)
    assert env_bool("MARQUOIR_TEST_FLAG", True) is True
    monkeypatch.delenv("MARQUOIR_TEST_FLAG")
    assert env_bool("MARQUOIR_TEST_FLAG", False) is False


@pytest.mark.parametrize("value", ["ture", "y", "2", "enabled", "off please"])
def test_a_typo_in_a_yes_or_no_setting_is_refused_with_its_name(monkeypatch, value):
    monkeypatch.setenv("MARQUOIR_HTTPS", value)
    with pytest.raises(ImproperlyConfigured, match=rf"^MARQUOIR_HTTPS='{value}' is neither on nor off: use one of "):
        env_bool("MARQUOIR_HTTPS")


def test_a_number_that_is_not_one_is_refused_with_its_name(monkeypatch):
    monkeypatch.setenv("WEB_THREADS_TEST", "eight")
    with pytest.raises(ImproperlyConfigured, match=r"^WEB_THREADS_TEST='eight' is not a whole number\.$"):
        env_int("WEB_THREADS_TEST", 8)
    monkeypatch.setenv("WEB_THREADS_TEST", " 12 ")
    assert env_int("WEB_THREADS_TEST", 8) == 12
    monkeypatch.setenv("WEB_THREADS_TEST", "")
    assert env_int("WEB_THREADS_TEST", 8) == 8


def test_the_server_refuses_to_start_on_a_typo_in_marquoir_https():
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env | {"MARQUOIR_HTTPS": "ture", "SECRET_KEY": "a-key-for-this-test-" + "0123456789" * 4},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured: MARQUOIR_HTTPS='ture' is neither on nor off" in result.stderr


def test_two_starts_at_once_keep_one_key(tmp_path):
    path = tmp_path / ".secret_key"
    assert kept_secret_key(path) == ""
    first = keep_secret_key(path)
    assert keep_secret_key(path) == first == kept_secret_key(path)
    assert [p.name for p in tmp_path.iterdir()] == [".secret_key"]  # no draft left behind
