"""A group: the people who play together, their plays, and the devices that know the group.

A group is reached as a match is: its id (128 random bits) in the address is the right to
see it, a separate key derived from the id (never stored, see ``services.group_key``) the
right to change it. Members are people with an id: a play's seats point at them, so a
member renamed keeps every play and figure.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import models

from marquoir.tables.models import Match, new_match_id


def new_play_id() -> str:
    return str(uuid.uuid4())


class Group(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_match_id, editable=False)
    name = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.name} {self.id}"


class Member(models.Model):
    """One person of a group; ``position`` keeps the order the group listed them in."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=40)
    position = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("group", "position")
        constraints = [models.UniqueConstraint(fields=("group", "position"), name="one_member_per_position")]

    def __str__(self) -> str:
        return self.name


class Play(models.Model):
    """One play of the group: a match kept here (``match`` set: its summary follows every
    write of the match, on commit: ``services.follow_match``) or one imported from a file
    (no match).

    Deleting the match deletes the play; deleting the play takes it out of the history,
    and deletes its match only for a device that keeps score on it (services.play_delete).
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="plays")
    # The play's id within its group, kept across export and import (a group imported twice
    # holds the same plays twice, each in its own group).
    uuid = models.CharField(max_length=36, default=new_play_id, editable=False)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="group_play")
    game = models.CharField(max_length=40)
    game_name = models.CharField(max_length=60)
    seats: models.JSONField[list[int]] = models.JSONField()
    first = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField()
    summary: models.JSONField[dict[str, Any]] = models.JSONField()
    # The match's seq when the summary was made: another seq means the match moved on.
    summary_seq = models.PositiveIntegerField(null=True, blank=True)
    over = models.BooleanField(default=False)

    class Meta:
        ordering = ("group", "-ended_at")
        indexes = [models.Index(fields=("group", "-ended_at"), name="play_history")]
        constraints = [models.UniqueConstraint(fields=("group", "uuid"), name="one_play_per_uuid_in_group")]

    def __str__(self) -> str:
        return f"{self.game} {self.uuid}"


class DeviceGroup(models.Model):
    """A group this device made or opened: for "my groups" and the right to change it."""

    device_digest = models.CharField(max_length=64, db_index=True)
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="devices")
    can_edit = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("device_digest", "group"), name="one_group_link_per_device")]

    def __str__(self) -> str:
        return f"{self.device_digest[:8]} {self.group_id}"
