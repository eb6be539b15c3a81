"""`make run` (scripts/run.py → marquoir.devserver): the address found on the local network,
what it prints, the server's environment, and the settings reading that environment."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from marquoir import devserver
from marquoir.devserver import banner, lan_address, plan
from marquoir.env import DEVELOPMENT_SECRET_KEY

ROOT = Path(__file__).resolve().parent.parent


class FakeSocket:
    """A UDP socket that reports ``address`` as its own once connected, or fails to connect."""

    def __init__(self, address: str = "192.168.1.23", error: OSError | None = None) -> None:
        self.address, self.error = address, error
        self.connected_to: tuple[str, int] | None = None
        self.closed = False

    def __enter__(self) -> FakeSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def connect(self, address: tuple[str, int]) -> None:
        if self.error:
            raise self.error
        self.connected_to = address

    def getsockname(self) -> tuple[str, int]:
        return (self.address, 54321)


def found(fake: FakeSocket) -> str:
    return lan_address(lambda: fake)  # type: ignore[arg-type,return-value]


def test_the_lan_address_is_the_one_the_outgoing_route_leaves_by():
    fake = FakeSocket("192.168.1.23")
    assert found(fake) == "192.168.1.23"
    assert fake.connected_to == devserver.ROUTE_PROBE
    assert fake.closed


def test_the_default_probe_is_a_udp_socket(monkeypatch):
    made: list[tuple[Any, ...]] = []

    def fake_socket(*args: Any) -> FakeSocket:
        made.append(args)
        return FakeSocket("10.0.0.7")

    monkeypatch.setattr(socket, "socket", fake_socket)
    assert lan_address() == "10.0.0.7"
    assert made == [(socket.AF_INET, socket.SOCK_DGRAM)]


@pytest.mark.parametrize(
    "fake",
    [
        FakeSocket(error=OSError(101, "Network is unreachable")),
        FakeSocket("127.0.1.1"),
        FakeSocket("0.0.0.0"),  # noqa: S104
        FakeSocket("not an address"),
    ],
    ids=["no route", "loopback", "unspecified", "garbage"],
)
def test_without_a_network_the_address_falls_back_to_loopback(fake):
    assert found(fake) == "127.0.0.1"


def test_on_all_interfaces_the_plan_adds_the_lan_address_to_the_hosts_and_the_public_url():
    served = plan("0.0.0.0", 8000, {"PATH": "/usr/bin"}, detect=lambda: "192.168.1.23")  # noqa: S104
    assert served.local_url == "http://127.0.0.1:8000"
    assert served.network_url == "http://192.168.1.23:8000"
    assert served.environment["MARQUOIR_EXTRA_HOSTS"] == "192.168.1.23"
    assert served.environment["MARQUOIR_PUBLIC_URL"] == "http://192.168.1.23:8000"
    assert served.environment["MARQUOIR_DEBUG"] == "0"  # no debug pages for the whole network
    assert served.environment["PATH"] == "/usr/bin"


def test_staying_local_keeps_debug_and_adds_no_address():
    served = plan("127.0.0.1", 8001, {}, detect=lambda: pytest.fail("no need to look"))
    assert served.network_url is None
    assert "MARQUOIR_EXTRA_HOSTS" not in served.environment
    assert "MARQUOIR_PUBLIC_URL" not in served.environment
    assert served.environment["MARQUOIR_DEBUG"] == "1"


def test_what_the_user_set_is_kept():
    environ = {
        "MARQUOIR_DEBUG": "1",
        "MARQUOIR_PUBLIC_URL": "https://marquoir.home.arpa",
        "MARQUOIR_EXTRA_HOSTS": "marquoir.home.arpa",
    }
    served = plan("0.0.0.0", 8000, environ, detect=lambda: "192.168.1.23")  # noqa: S104
    assert served.environment["MARQUOIR_DEBUG"] == "1"
    assert served.environment["MARQUOIR_PUBLIC_URL"] == "https://marquoir.home.arpa"
    assert served.environment["MARQUOIR_EXTRA_HOSTS"] == "marquoir.home.arpa,192.168.1.23"


def test_a_given_address_is_used_as_is():
    served = plan("10.1.2.3", 9000, {}, detect=lambda: pytest.fail("no need to look"))
    assert served.network_url == "http://10.1.2.3:9000"


def test_when_no_lan_address_is_found_only_this_machine_is_offered():
    served = plan("0.0.0.0", 8000, {}, detect=lambda: "127.0.0.1")  # noqa: S104
    assert served.network_url is None
    assert "MARQUOIR_PUBLIC_URL" not in served.environment
    assert "only this machine" in banner(served)


def test_the_banner_prints_both_addresses_and_what_needs_https():
    text = banner(plan("0.0.0.0", 8000, {}, detect=lambda: "192.168.1.23"))  # noqa: S104
    assert "On this machine, open:        http://127.0.0.1:8000/" in text
    assert "Other phones on this network: http://192.168.1.23:8000/" in text
    assert "Debug pages: off" in text
    assert "HTTPS" in text


class Recorder:
    """Stands for subprocess.run and os.execve: records what `make run` would run."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str], dict[str, str]]] = []

    def run(self, args: list[str], env: dict[str, str], check: bool) -> subprocess.CompletedProcess[str]:
        self.calls.append(("run", list(args), dict(env)))
        return subprocess.CompletedProcess(args, 0)

    def execve(self, path: str, args: list[str], env: dict[str, str]) -> None:
        self.calls.append((path, list(args), dict(env)))


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Recorder:
    recorded = Recorder()
    monkeypatch.setattr(subprocess, "run", recorded.run)
    monkeypatch.setattr(os, "execve", recorded.execve)
    monkeypatch.setattr(devserver, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setenv("MARQUOIR_SECRET_KEY_FILE", str(tmp_path / "kept" / ".secret_key"))
    for name in ("MARQUOIR_DEBUG", "MARQUOIR_PUBLIC_URL", "MARQUOIR_BEHIND_PROXY"):
        monkeypatch.delenv(name, raising=False)
    return recorded


def test_main_migrates_prints_then_becomes_uvicorn_with_that_environment(recorder, capsys):
    devserver.main(["--port", "8123"])
    assert "http://192.168.1.23:8123/" in capsys.readouterr().out
    [(run, migrate, _), (path, args, env)] = recorder.calls
    assert run == "run"
    assert migrate[1:] == [str(ROOT / "manage.py"), "migrate", "--no-input"]
    assert path == sys.executable
    assert args[1:] == [
        *("-m", "uvicorn", "marquoir.asgi:application", "--host", "0.0.0.0", "--port", "8123"),  # noqa: S104
        *("--http", "h11"),  # a request head is bounded (16 KiB), as under gunicorn
        "--no-proxy-headers",
    ]
    assert env["MARQUOIR_PUBLIC_URL"] == "http://192.168.1.23:8123"
    assert env["MARQUOIR_DEBUG"] == "0"


def test_make_run_makes_its_own_key_on_first_start_and_keeps_it(recorder, monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    kept = tmp_path / "kept" / ".secret_key"
    devserver.main(["--port", "8123"])
    first = kept.read_text().strip()
    assert len(first) >= 80
    assert first != DEVELOPMENT_SECRET_KEY
    assert kept.stat().st_mode & 0o777 == 0o600  # a key to sign with: this user's only
    devserver.main(["--port", "8123"])
    assert kept.read_text().strip() == first  # the links handed out yesterday still work


def test_a_key_in_the_environment_is_used_and_nothing_is_written(recorder, monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "an-operator-key-" + "0123456789" * 5)
    devserver.main(["--port", "8123"])
    assert not (tmp_path / "kept").exists()


def test_the_banner_says_nothing_about_keys(recorder, monkeypatch, capsys):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    devserver.main(["--port", "8123"])
    devserver.main(["--host", "127.0.0.1", "--port", "8123"])
    assert "key" not in capsys.readouterr().out.lower()


@pytest.mark.parametrize(("value", "flag"), [("1", "--proxy-headers"), ("0", "--no-proxy-headers")])
def test_uvicorn_reads_forwarded_headers_only_behind_our_proxy(recorder, monkeypatch, value, flag):
    monkeypatch.setenv("MARQUOIR_BEHIND_PROXY", value)
    devserver.main(["--port", "8123"])
    [_, (_, args, _)] = recorder.calls
    assert args[-1] == flag
    assert ("--no-proxy-headers" in args) is (value == "0")


SETTINGS_CODE = (
    "import json; from marquoir import settings as s; print(json.dumps({'hosts': s.ALLOWED_HOSTS, "
    "'public': s.MARQUOIR_PUBLIC_URL, 'debug': s.DEBUG, 'key': s.SECRET_KEY, 'preload': s.SECURE_HSTS_PRELOAD}))"
)


def settings_process(**environment: str) -> subprocess.CompletedProcess[str]:
    """A fresh process reading marquoir.settings (not the tests' settings) from ``environment``,
    with no key but the one given (SECRET_KEY, or a kept file: MARQUOIR_SECRET_KEY_FILE)."""
    dropped = ("MARQUOIR_", "ALLOWED_HOSTS", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
    env = {key: value for key, value in os.environ.items() if not key.startswith(dropped)}
    env["MARQUOIR_SECRET_KEY_FILE"] = "/nonexistent/marquoir/.secret_key"
    return subprocess.run(  # noqa: S603 (this interpreter, our own code)
        [sys.executable, "-c", SETTINGS_CODE], cwd=ROOT, env=env | environment, capture_output=True, text=True
    )


def settings_read(**environment: str) -> dict[str, Any]:
    """The settings a fresh process reads from ``environment`` (a key given, unless in it)."""
    result = settings_process(**({"SECRET_KEY": "a-key-for-this-test-" + "0123456789" * 4} | environment))
    assert result.returncode == 0, result.stderr
    read: dict[str, Any] = json.loads(result.stdout)
    return read


def test_without_a_key_the_settings_refuse_to_start_outside_tests():
    result = settings_process()
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set and no key is kept in /nonexistent/marquoir/.secret_key" in (
        result.stderr
    )
    assert "make run" in result.stderr


def test_without_secret_key_the_settings_sign_with_the_kept_key(tmp_path):
    kept = tmp_path / ".secret_key"
    kept.write_text("the-kept-key-" + "abcdef0123" * 6 + "\n")
    read = settings_read(SECRET_KEY="", MARQUOIR_SECRET_KEY_FILE=str(kept))
    assert read["key"] == "the-kept-key-" + "abcdef0123" * 6


def test_the_public_development_key_is_never_a_default_outside_tests(tmp_path):
    # Whatever a fresh process is given, it never falls back to the key in the repository.
    for environment in ({}, {"MARQUOIR_DEBUG": "1"}, {"MARQUOIR_SECRET_KEY_FILE": str(tmp_path / "none")}):
        result = settings_process(**environment)
        assert DEVELOPMENT_SECRET_KEY not in result.stdout
        assert result.returncode != 0


def test_the_settings_add_the_extra_hosts_and_read_the_public_url():
    read = settings_read(MARQUOIR_EXTRA_HOSTS="192.168.1.23", MARQUOIR_PUBLIC_URL="http://192.168.1.23:8000/")
    assert read["hosts"] == ["127.0.0.1", "localhost", "[::1]", "testserver", "192.168.1.23"]
    assert read["public"] == "http://192.168.1.23:8000"
    assert read["debug"] is False


def test_unset_the_settings_are_as_in_production():
    read = settings_read(ALLOWED_HOSTS="marquoir.example")
    assert read["hosts"] == ["marquoir.example"]
    assert read["public"] == ""
