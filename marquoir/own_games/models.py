"""A user's own game: a game file kept in the database, versioned, reached by capability.

Its id (128 random bits) in an address is the right to see it and to play it; a separate
key derived from the id (never stored, ``services.game_key_for``) is the right to change it.
A change is a new version: a version is never changed again, and a match holds the
version it started with in its game key (``own.<id>.<version>``), so changing the game
never changes a match under way.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from marquoir.tables.models import new_match_id


class OwnGame(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_match_id, editable=False)
    # The newest version's number (versions count from 1), kept here to find it in one read.
    latest = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"own game {self.id} v{self.latest}"


class OwnGameVersion(models.Model):
    """One version of the game's file, as the schema read it (JSON): never changed."""

    game = models.ForeignKey(OwnGame, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    file: models.JSONField[dict[str, Any]] = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "number")
        constraints = [models.UniqueConstraint(fields=("game", "number"), name="one_own_game_version_per_number")]

    def __str__(self) -> str:
        return f"{self.game_id} v{self.number}"


class DeviceOwnGame(models.Model):
    """An own game this device made or opened, and whether it may change it."""

    device_digest = models.CharField(max_length=64, db_index=True)
    game = models.ForeignKey(OwnGame, on_delete=models.CASCADE, related_name="devices")
    can_edit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("device_digest", "game"), name="one_own_game_link_per_device")]

    def __str__(self) -> str:
        return f"{self.device_digest[:8]} {self.game_id}"
