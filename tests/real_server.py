"""A real uvicorn process serving Marquoir on its own migrated SQLite file, for the tests
that need real sockets (slow clients, thousands of streams): what the test client and an
in-process ASGI call cannot show, such as a thread pool held by a socket or a process out
of file descriptors."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 60.0
ANSWER_TIMEOUT_S = 10.0  # "it answered": generous on a loaded machine, no timing asserted


def sqlite_environment(path: Path) -> dict[str, str]:
    """This process's environment for a server on the SQLite file ``path``: without
    ``DATABASE_URL``, which the PostgreSQL pass of the suite sets and would otherwise win
    (its shared database keeps what other tests counted, rate limits included)."""
    environment = {**os.environ, "SQLITE_PATH": str(path)}
    environment.pop("DATABASE_URL", None)
    return environment


def migrated_database(directory: Path) -> Path:
    """A fresh SQLite file with every migration applied."""
    path = directory / "db.sqlite3"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=REPO_ROOT,
        env=sqlite_environment(path),
        check=True,
        timeout=180,
    )
    return path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def request(
    port: int, method: str, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own: status, headers, body."""
    connection = http.client.HTTPConnection(HOST, port, timeout=ANSWER_TIMEOUT_S)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        all_headers = {**({"Content-Type": "application/json"} if payload else {}), **(headers or {})}
        connection.request(method, path, body=payload, headers=all_headers)
        with connection.getresponse() as response:
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def raise_own_descriptor_limit(wanted: int) -> int:
    """Raise this process's soft open-file limit towards ``wanted`` (up to the hard limit);
    returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@contextlib.contextmanager
def serving(
    database: Path, log_path: Path, *, descriptors: int | None = None, production: bool = False, **settings: str
) -> Iterator[int]:
    """uvicorn on a free port (yielded) with ``settings`` in its environment, DEBUG off;
    ``descriptors`` sets its soft open-file limit (as ``ulimit -n`` would); ``production``
    serves with gunicorn and its uvicorn workers as ``make serve`` does (one worker)."""
    port = _free_port()
    if production:
        settings = {"BIND": f"{HOST}:{port}", "WEB_CONCURRENCY": "1", **settings}
        command = [sys.executable, "-m", "gunicorn", "-c", "marquoir/gunicorn_conf.py", "marquoir.asgi:application"]
    else:
        command = [sys.executable, "-m", "uvicorn", "marquoir.asgi:application"]
        command += ["--host", HOST, "--port", str(port), "--log-level", "warning", "--backlog", "4096"]
    env = {**sqlite_environment(database), "MARQUOIR_DEBUG": "0", "PYTHONUNBUFFERED": "1", **settings}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    def limit_descriptors() -> None:
        if descriptors is not None:
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, hard))

    with log_path.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603 (our own arguments)
            command,
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=limit_descriptors,  # only setrlimit, between fork and exec
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            with contextlib.suppress(OSError):
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start; its output:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        yield port
    finally:
        # Stopped by its own id; killed if held connections keep it from ending in time.
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
