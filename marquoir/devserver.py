"""`make run`: serve on this machine and, unless told to stay local, to the other phones at home.

It finds this machine's address on the local network, prints the address to open here and
the one other phones on the same network open, then becomes uvicorn with the environment
the settings read: ``MARQUOIR_EXTRA_HOSTS`` (that address, for ALLOWED_HOSTS),
``MARQUOIR_PUBLIC_URL`` (the base of a table's links and QR codes) and ``MARQUOIR_DEBUG``
(on only while nobody else can reach the server, unless set). Before that it makes the
server's secret key on the first start and keeps it (marquoir.env.keep_secret_key; the
settings read it), unless SECRET_KEY is set, and migrates. No Django settings here: it runs
before the server, and the tests call its functions directly.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from marquoir.env import TRUE_WORDS, keep_secret_key, parse_bool

ROOT = Path(__file__).resolve().parent.parent

LOOPBACK = "127.0.0.1"
# Any address outside this network will do: connecting a UDP socket sends nothing, it only
# asks the kernel which interface the route to it leaves by. 192.0.2.1 is TEST-NET-1 (RFC 5737),
# reserved for documentation, so nothing would answer there anyway.
ROUTE_PROBE = ("192.0.2.1", 9)
ALL_INTERFACES = {"0.0.0.0", "::", ""}  # noqa: S104 (listening beyond loopback is the point)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address(make_socket: Callable[[], socket.socket] | None = None) -> str:
    """This machine's IPv4 address on the local network, or the loopback address if it has none.

    The socket is a UDP one: ``connect`` picks the outgoing interface without sending a packet.
    """
    make = make_socket or (lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
    try:
        with make() as probe:
            probe.connect(ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:  # no network at all (no route, no interface up)
        return LOOPBACK
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return LOOPBACK
    return LOOPBACK if parsed.is_loopback or parsed.is_unspecified else address


def url_host(address: str) -> str:
    """``address`` as it goes in a URL (an IPv6 address in brackets)."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


@dataclass(frozen=True)
class Plan:
    """What `make run` serves: where it listens, the two addresses, the server's environment."""

    host: str
    port: int
    local_url: str
    network_url: str | None  # None when the server stays on this machine
    environment: dict[str, str]


def plan(host: str, port: int, environ: Mapping[str, str], detect: Callable[[], str] | None = None) -> Plan:
    """Work out the addresses and the server's environment (``environ`` with ours added).

    A variable the user set is kept: ``MARQUOIR_DEBUG=1 make run`` still gets debug pages, and
    ``MARQUOIR_PUBLIC_URL=https://…`` (a TLS proxy at home) still wins over the address found.
    """
    environment = dict(environ)
    local_url = f"http://{LOOPBACK}:{port}"
    network_address: str | None = None
    if not is_loopback(host):
        network_address = (detect or lan_address)() if host in ALL_INTERFACES else host.strip("[]")
        if is_loopback(network_address):
            network_address = None
    network_url = f"http://{url_host(network_address)}:{port}" if network_address else None
    if network_address:
        extra = [item for item in environment.get("MARQUOIR_EXTRA_HOSTS", "").split(",") if item.strip()]
        environment["MARQUOIR_EXTRA_HOSTS"] = ",".join([*extra, url_host(network_address)])
        environment.setdefault("MARQUOIR_PUBLIC_URL", network_url or "")
    # Django's debug pages show settings and code: only for a server nobody else can reach.
    environment.setdefault("MARQUOIR_DEBUG", "1" if is_loopback(host) else "0")
    return Plan(host, port, local_url, network_url, environment)


def banner(served: Plan) -> str:
    """What `make run` prints before serving."""
    lines = ["", "Marquoir is starting.", f"  On this machine, open:        {served.local_url}/"]
    if served.network_url:
        lines += [
            f"  Other phones on this network: {served.network_url}/",
            "  (same Wi-Fi; the QR codes of a table carry this address)",
        ]
    elif is_loopback(served.host):
        lines.append("  Only this machine can open it (HOST is a loopback address).")
    else:
        lines.append("  No local network address found: only this machine can open it.")
    debug = served.environment.get("MARQUOIR_DEBUG", "0")
    lines += [
        f"  Debug pages: {'on' if debug.strip().lower() in TRUE_WORDS else 'off'} (MARQUOIR_DEBUG)",
        "  Keeping the screen awake and installing the app need HTTPS (or localhost): see docs/deploy.md.",
        "",
    ]
    return "\n".join(lines)


def uvicorn_command(served: Plan) -> list[str]:
    """uvicorn's command line. uvicorn believes ``X-Forwarded-For`` and ``-Proto`` from
    127.0.0.1 by default, so any local process (or a proxy the user never meant to trust)
    could pick the client address the rate limits count: forwarded headers are read only
    when MARQUOIR_BEHIND_PROXY says a proxy of ours is in front (as in gunicorn_conf.py)."""
    command = [sys.executable, "-m", "uvicorn", "marquoir.asgi:application", "--host", served.host]
    # h11 stops a request head at 16 KiB; httptools, uvicorn's default, takes any size into
    # memory (a 20 MB header was read whole). As gunicorn_conf.py does for `make serve`.
    command += ["--port", str(served.port), "--http", "h11"]
    behind_proxy = served.environment.get("MARQUOIR_BEHIND_PROXY", "").strip()
    if behind_proxy and parse_bool("MARQUOIR_BEHIND_PROXY", behind_proxy):
        return [*command, "--proxy-headers"]
    return [*command, "--no-proxy-headers"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default="0.0.0.0", help="127.0.0.1 to stay on this machine")  # noqa: S104
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    served = plan(args.host, args.port, os.environ)
    if not served.environment.get("SECRET_KEY"):
        # Tokens and group keys are signed with it: a key of this checkout's own, never the
        # public one, kept so that the links handed out stay valid after a restart.
        keep_secret_key()
    migrate = [sys.executable, str(ROOT / "manage.py"), "migrate", "--no-input"]
    if status := subprocess.run(migrate, env=served.environment, check=False).returncode:  # noqa: S603
        return status  # migrate said why
    # whitenoise serves the apps' files in development, but warns at every start while the
    # collected files' folder is missing: an empty one says there is nothing collected yet.
    (ROOT / "staticfiles").mkdir(exist_ok=True)
    print(banner(served), flush=True)
    command = uvicorn_command(served)
    os.execve(sys.executable, command, served.environment)  # noqa: S606 (our own interpreter)
    return 0  # not reached: the process is uvicorn now


if __name__ == "__main__":
    sys.exit(main())
