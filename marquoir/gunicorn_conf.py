"""Gunicorn settings for production: uvicorn workers (ASGI, for the live streams).

Everything comes from the environment so one image serves every deployment:
BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (worker processes, default 2),
GRACEFUL_TIMEOUT (seconds a worker gets to finish on restart, default 20),
MARQUOIR_BEHIND_PROXY (read forwarded headers; FORWARDED_ALLOW_IPS, the proxies believed).
"""

import os

from uvicorn_worker import UvicornWorker

from marquoir.env import env_bool


class DirectWorker(UvicornWorker):  # type: ignore[misc]  # uvicorn_worker ships no type information
    """A uvicorn worker that reads no forwarded header. uvicorn_worker leaves uvicorn's
    proxy_headers on and passes it gunicorn's forwarded_allow_ips (127.0.0.1 by default), so
    any process on this machine could say which client it is with ``X-Forwarded-For`` (and
    get a fresh rate-limit budget per request). Without a proxy of ours in front, the client
    address is the connection's."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": "h11", "proxy_headers": False}


class ProxiedWorker(UvicornWorker):  # type: ignore[misc]
    """Behind our proxy: uvicorn's forwarded headers on, as uvicorn_worker sets them."""

    # h11 in both (uvicorn's "auto" picks httptools): h11 refuses a request head over 16 KiB
    # (h11_max_incomplete_event_size), where httptools took a 20 MB header into memory
    # (measured). A client sending its headers slowly or hugely then holds a connection and
    # at most 16 KiB, never a thread (marquoir.bodies reads bodies the same way). It costs
    # about 0.1 ms a request (measured: /healthz 0.74 against 0.60 ms).
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": "h11"}


bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Behind our proxy (MARQUOIR_BEHIND_PROXY=1) uvicorn takes the client address and scheme from
# the headers of the proxies in FORWARDED_ALLOW_IPS (127.0.0.1,::1 by default).
behind_proxy = env_bool("MARQUOIR_BEHIND_PROXY")
worker_class = "marquoir.gunicorn_conf.ProxiedWorker" if behind_proxy else "marquoir.gunicorn_conf.DirectWorker"
# Live streams are long requests by design: they end by themselves after ten minutes
# (marquoir.tables.live), and a worker restart closes them; browsers reconnect.
timeout = 0
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "20"))
keepalive = 5
# Our own access log (marquoir.logs) leaves query strings and headers out; gunicorn's would not.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")
proc_name = "marquoir"
# Each worker listens on a socket of its own (SO_REUSEPORT) and the kernel spreads new
# connections over them. On one shared socket the worker that wakes first accepts a whole
# burst of connections, and as phones keep their connections alive, it keeps their load.
reuse_port = True
