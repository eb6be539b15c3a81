"""Rate limits.

How many matches one client may create: a fixed window per client, kept in the database
so that every server process counts the same requests (``allow_match_creation``).

Everything else that only needs to stop abuse (actions per match and per address, refused
imports, costly reads) spends from ``spend``: a fixed window per key kept in this process's
memory, so that counting costs no query. It is per process: with N server processes (the
workers of ``make serve``) a client can get up to N times the limit, which is fine for
limits chosen far above what real use reaches.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import RateBucket


def client_key(request: HttpRequest) -> str:
    """The client's address. Behind our proxies, the address the first of them saw: each
    proxy appends to X-Forwarded-For the address it got the request from, so with N proxies
    of ours (MARQUOIR_PROXY_HOPS) that is the N-th entry from the end; entries before it
    are whatever the client chose to send, and taking one would let it pick a new address
    for every request."""
    if settings.MARQUOIR_BEHIND_PROXY:
        entries = request.headers.get("X-Forwarded-For", "").split(",")
        if len(entries) >= settings.MARQUOIR_PROXY_HOPS:
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(entries[-settings.MARQUOIR_PROXY_HOPS].strip()))
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:100]


@dataclass(frozen=True)
class Allowance:
    """Whether one more match (or action, or costly request) may go ahead now, and if
    not, in how many seconds."""

    allowed: bool
    retry_after: int = 0

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up, as people are told it."""
        return max(1, math.ceil(self.retry_after / 60))


def _creation_buckets(request: HttpRequest, device: str | None, new_device: bool = False) -> list[tuple[str, int]]:
    """The counters one creation goes into, each with its limit.

    A device (the cookie of a phone that keeps score) has its own allowance, and its
    address a larger one for all its devices together: twenty phones of a board-game café
    behind one address each start their games. A client without a device (a script on
    the API, a page posted without a cookie) is counted by its address with a device's
    allowance. A device nothing knows yet (``new_device``: a phone's first match, or a
    cookie made up for the occasion) is counted both as itself and in that same
    address-wide allowance, so that a fresh cookie per request buys nothing.
    """
    address = client_key(request)
    own = f"create-device:{device}" if device is not None else f"create:{address}"
    buckets = [(own, settings.MATCH_CREATION_LIMIT)]
    if device is not None and new_device:
        buckets.append((f"create:{address}", settings.MATCH_CREATION_LIMIT))
    buckets.append((f"create-address:{address}", settings.MATCH_CREATION_ADDRESS_LIMIT))
    return buckets


# Expired buckets deleted by each creation that adds a bucket: every new client adds rows,
# and each such creation takes away up to this many expired ones, so the table holds the
# buckets of the last window plus a bounded rest, for a bounded cost per creation.
PURGE_BATCH = 20


def _purge_expired(cutoff: datetime, *, keep: list[str]) -> None:
    """Delete up to PURGE_BATCH buckets whose window ended before ``cutoff`` (an expired
    bucket counts as no bucket: the next creation starts it afresh). Rows another request
    holds are skipped, not waited for (PostgreSQL's SKIP LOCKED), so two creations purging
    at once never wait on each other, and the delete checks the window again, so a bucket
    restarted meanwhile stays."""
    stale = RateBucket.objects.filter(window_start__lt=cutoff).exclude(key__in=keep)
    if connection.features.has_select_for_update_skip_locked:
        stale = stale.select_for_update(skip_locked=True)
    ids = list(stale.order_by("window_start").values_list("pk", flat=True)[:PURGE_BATCH])
    if ids:
        RateBucket.objects.filter(pk__in=ids, window_start__lt=cutoff).delete()


def allow_match_creation(request: HttpRequest, *, device: str | None = None, new_device: bool = False) -> Allowance:
    """Count one creation for this client if every counter it goes into has room.

    Call it once the request is known to be valid: only creations that happen are
    counted. ``device`` is the device's digest, when the request comes from one;
    ``new_device`` when no match knows that device yet (see ``_creation_buckets``).
    """
    buckets = _creation_buckets(request, device, new_device)
    window = timedelta(seconds=settings.MATCH_CREATION_WINDOW_SECONDS)
    now = timezone.now()
    for _attempt in range(2):
        try:
            with transaction.atomic():
                rows = {
                    row.key: row
                    for row in RateBucket.objects.select_for_update().filter(key__in=[key for key, _ in buckets])
                }
                for row in rows.values():
                    if now - row.window_start >= window:
                        row.window_start, row.count = now, 0
                full = [rows[key] for key, limit in buckets if key in rows and rows[key].count >= limit]
                if full:
                    ends = max(row.window_start + window for row in full)
                    return Allowance(False, max(1, math.ceil((ends - now).total_seconds())))
                if len(rows) < len(buckets):
                    _purge_expired(now - window, keep=[key for key, _ in buckets])
                for key, _limit in buckets:
                    row = rows.get(key) or RateBucket(key=key, window_start=now, count=0)
                    row.count += 1
                    row.save()
                return Allowance(True)
        except IntegrityError:
            continue  # another request created a bucket first: count again with it
    return Allowance(False, settings.MATCH_CREATION_WINDOW_SECONDS)


def allow_action(request: HttpRequest, match_id: str) -> Allowance:
    """Count one write attempt on ``match_id`` (an action, an undo, a retry) from this
    client, per match and per address, in this process's memory (a turn costs no query).

    The limits (settings ``MATCH_ACTION_*``, docs/api.md) are far above what a table
    reaches: a person taps a turn every few seconds at most, and a café's tables share one
    address. The match's allowance is looked at first: a client flooding one match does not
    spend its address's allowance for its other tables.
    """
    window = settings.MATCH_ACTION_WINDOW_SECONDS
    per_match = spend(f"act-match:{match_id[:64]}", limit=settings.MATCH_ACTION_LIMIT, window_seconds=window)
    if not per_match.allowed:
        return per_match
    return spend(f"act-address:{client_key(request)}", limit=settings.MATCH_ACTION_ADDRESS_LIMIT, window_seconds=window)


class MemoryLimiter:
    """Fixed windows per key, in this process's memory, for at most ``max_keys`` keys.

    Bounded memory: the keys are kept in least-recently-used order and the oldest is
    dropped beyond ``max_keys``, so a client that makes up keys (addresses, match ids) by
    the million costs a fixed amount of memory; a dropped key starts afresh, which only
    ever errs on the side of letting a request through. Thread-safe: the sync requests
    run in a thread pool, and two of them spending from the same key must both count.
    """

    def __init__(self, *, max_keys: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_keys = max_keys
        self.clock = clock
        self._lock = threading.Lock()
        # key -> [window start (clock seconds), spent in that window]
        self._windows: OrderedDict[str, list[float]] = OrderedDict()

    def spend(self, key: str, *, limit: int, window_seconds: int, cost: int = 1) -> Allowance:
        """Spend ``cost`` from ``key``'s allowance of ``limit`` per ``window_seconds``.

        A refused spend takes nothing, so a refused client's allowance comes back when
        its window ends, however often it retries meanwhile.
        """
        now = self.clock()
        with self._lock:
            window = self._windows.get(key)
            if window is None or now - window[0] >= window_seconds:
                window = [now, 0]
                self._windows[key] = window
            self._windows.move_to_end(key)
            if window[1] + cost > limit:
                left = window_seconds - (now - window[0])  # (0, window]; float noise can't push it past
                return Allowance(False, min(window_seconds, max(1, math.ceil(left))))
            window[1] += cost
            while len(self._windows) > self.max_keys:
                self._windows.popitem(last=False)
            return Allowance(True)

    def peek(self, key: str, *, limit: int, window_seconds: int) -> Allowance:
        """Whether ``key`` could spend one more now, spending nothing."""
        now = self.clock()
        with self._lock:
            window = self._windows.get(key)
            if window is None or now - window[0] >= window_seconds or window[1] + 1 <= limit:
                return Allowance(True)
            left = window_seconds - (now - window[0])
            return Allowance(False, min(window_seconds, max(1, math.ceil(left))))

    def clear(self) -> None:
        """Forget every window (tests, and nothing else)."""
        with self._lock:
            self._windows.clear()

    def __len__(self) -> int:
        return len(self._windows)


# One limiter per process. Measured: ~270 bytes per key (an IPv6 key), so 50,000 keys
# (far more addresses and matches than are active in a window) hold ~14 MB at most.
LIMITER = MemoryLimiter(max_keys=50_000)


def peek(key: str, *, limit: int, window_seconds: int) -> Allowance:
    """Whether ``spend`` would allow one more for ``key`` now, spending nothing (to refuse a
    request before reading its body, when its budget is already spent)."""
    return LIMITER.peek(key, limit=limit, window_seconds=window_seconds)


def spend(key: str, *, limit: int, window_seconds: int, cost: int = 1) -> Allowance:
    """Spend ``cost`` from ``key``'s allowance of ``limit`` per ``window_seconds``, in
    this process's memory (no query).

    Per process: with N server processes a client gets up to N times the limit, since
    each process counts only the requests it served. Use it for limits that stop abuse,
    set well above real use; for a limit that must hold exactly across processes (match
    creation), count in the database as ``allow_match_creation`` does. Namespace the key
    by purpose (``"import-refused:" + address``) so that budgets don't mix.
    """
    return LIMITER.spend(key, limit=limit, window_seconds=window_seconds, cost=cost)
