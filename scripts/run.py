"""`make run`'s server: makes its secret key on the first start (kept in .secret_key), migrates,
prints the address to open here and the one other phones open, then serves (uvicorn). The
work is in marquoir/devserver.py; `--host 127.0.0.1` stays local."""

from __future__ import annotations

import sys

from marquoir.devserver import main

if __name__ == "__main__":
    sys.exit(main())
