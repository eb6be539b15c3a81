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


def test_main_prints_then_becomes_uvicorn_with_that_environment(monkeypatch, capsys):
    monkeypatch.setattr(devserver, "lan_address", lambda: "192.168.1.23")
    monkeypatch.delenv("MARQUOIR_DEBUG", raising=False)
    monkeypatch.delenv("MARQUOIR_PUBLIC_URL", raising=False)
    calls: list[tuple[str, list[str], dict[str, str]]] = []
    monkeypatch.setattr(os, "execve", lambda path, args, env: calls.append((path, list(args), dict(env))))
    devserver.main(["--port", "8123"])
    assert "http://192.168.1.23:8123/" in capsys.readouterr().out
    [(path, args, env)] = calls
    assert path == sys.executable
    assert args[1:] == ["-m", "uvicorn", "marquoir.asgi:application", "--host", "0.0.0.0", "--port", "8123"]  # noqa: S104
    assert env["MARQUOIR_PUBLIC_URL"] == "http://192.168.1.23:8123"
    assert env["MARQUOIR_DEBUG"] == "0"


def settings_read(**environment: str) -> dict[str, Any]:
    """The settings a fresh process reads from ``environment``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MARQUOIR_", "ALLOWED_HOSTS"))}
    code = (
        "import json; from marquoir import settings as s; "
        "print(json.dumps({'hosts': s.ALLOWED_HOSTS, 'public': s.MARQUOIR_PUBLIC_URL, 'debug': s.DEBUG}))"
    )
    result = subprocess.run(  # noqa: S603 (this interpreter, our own code)
        [sys.executable, "-c", code], cwd=ROOT, env=env | environment, capture_output=True, text=True, check=True
    )
    read: dict[str, Any] = json.loads(result.stdout)
    return read


def test_the_settings_add_the_extra_hosts_and_read_the_public_url():
    read = settings_read(MARQUOIR_EXTRA_HOSTS="192.168.1.23", MARQUOIR_PUBLIC_URL="http://192.168.1.23:8000/")
    assert read["hosts"] == ["127.0.0.1", "localhost", "[::1]", "testserver", "192.168.1.23"]
    assert read["public"] == "http://192.168.1.23:8000"
    assert read["debug"] is False


def test_unset_the_settings_are_as_in_production():
    read = settings_read(ALLOWED_HOSTS="marquoir.example")
    assert read["hosts"] == ["marquoir.example"]
    assert read["public"] == ""
