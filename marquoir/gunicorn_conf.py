"""Gunicorn settings for production: uvicorn workers (ASGI, for the live streams).

Everything comes from the environment so one image serves every deployment:
BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (worker processes, default 2),
GRACEFUL_TIMEOUT (seconds a worker gets to finish on restart, default 20).
"""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "uvicorn_worker.UvicornWorker"
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
