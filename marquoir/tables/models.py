"""A match is its log: the set-up, then every action in order, undos included.

Nothing is deleted: an undo is an entry of its own and marks the entry it takes back as
undone, so a match can be replayed, audited and charted. The table is the fold of the
entries still in force (see selectors.py); ``seq`` counts every accepted entry.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import models


def new_match_id() -> str:
    """An unguessable id (128 random bits): knowing it is the right to watch."""
    return secrets.token_urlsafe(16)


_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_match_id(value: object) -> bool:
    """Whether ``value`` could be a match id (the URL-safe alphabet of ``new_match_id``).
    Anything else is no match and is never looked up: PostgreSQL refuses a NUL byte in
    text outright, and an address is anybody's to type."""
    return isinstance(value, str) and _MATCH_ID.fullmatch(value) is not None


class Match(models.Model):
    """One game at one table."""

    id = models.CharField(primary_key=True, max_length=32, default=new_match_id, editable=False)
    game = models.CharField(max_length=40)
    players: models.JSONField[list[str]] = models.JSONField()
    first = models.PositiveSmallIntegerField(default=0)
    options: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    over = models.BooleanField(default=False)
    # Odds and advice on the score keeper's screen; off unless the table agrees to it.
    assistant = models.BooleanField(default=False)
    # Whether something follows this match's writes (a group's history holds it): only then
    # is a write published to the followers (services.follow_writes), so that the turns of
    # every other match cost no query to find out whether anyone follows them.
    followed = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game} {self.id}"


class LogEntry(models.Model):
    """One accepted request: a game's action (what it was is in ``payload``, with its
    ``type``), or one of the core's, for every game: an undo of an earlier entry, a redo of
    what an undo took back, a correction of an earlier action (``payload``: its ``seq``
    and the ``action`` in its place). See ``fold.Ledger``."""

    class Kind(models.TextChoices):
        ACTION = "action"
        UNDO = "undo"
        REDO = "redo"
        CORRECT = "correct"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    seq = models.PositiveIntegerField(help_text="The match's seq once this entry was accepted.")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    payload: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    undone_by = models.PositiveIntegerField(
        null=True, blank=True, help_text="The seq of the undo that took this back (cleared by a redo)."
    )
    undoes = models.PositiveIntegerField(null=True, blank=True, help_text="For an undo: the seq it took back.")
    # NULL, not "", when absent: the uniqueness of client keys only holds among real keys.
    action_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # Only entries written before migration 0006: the State answered the first time, kept
    # so that a retry of their action_id gets it back as it was sent. Since then nothing is
    # stored here (a whole State per entry grew a 20-player sheet's log by ~34 kB an
    # action): a retry's answer is folded again from the log (services.answer_of).
    response: models.JSONField[dict[str, Any] | None] = models.JSONField(
        null=True, blank=True, help_text="Entries before 0006 only: the State first answered."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("match", "seq")
        constraints = [
            models.UniqueConstraint(fields=("match", "seq"), name="one_entry_per_seq"),
            models.UniqueConstraint(
                fields=("match", "action_id"),
                condition=models.Q(action_id__isnull=False),
                name="one_entry_per_action_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind}"


class DeviceMatch(models.Model):
    """A match this device created or joined: for "my matches", names offered, the right to edit.

    The device is known by a random cookie; only its digest is stored.
    """

    device_digest = models.CharField(max_length=64, db_index=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="devices")
    can_edit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("device_digest", "match"), name="one_link_per_device")]

    def __str__(self) -> str:
        return f"{self.device_digest[:8]} {self.match_id}"


class RateBucket(models.Model):
    """A counter per client and purpose over a fixed window (see ratelimit.py). Only match
    creation counts here, over MATCH_CREATION_WINDOW_SECONDS: a bucket older than that is
    expired, and creations delete expired ones (ratelimit._purge_expired)."""

    key = models.CharField(max_length=200, unique=True)
    # Indexed: the purge looks for the oldest windows.
    window_start = models.DateTimeField(db_index=True)
    count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
