"""What a group adds to the table screen of a match played for it (``tables.screen.add_table_part``):
its name and a link back to it, and a rematch that joins the group too.

Only for a device that knows the group (it made, opened or joined it): a match's watch link
is no right to see the group, whose page holds every other match and figure. The rematch
is the group's only for a device that may add matches to it; any other keeps the core's,
and the screen says that one will not be in the group.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.urls import reverse

from marquoir.tables.capabilities import digest
from marquoir.tables.device import device_secret
from marquoir.tables.fold import MatchView
from marquoir.tables.screen import TableGroup

from .models import DeviceGroup, Play


def group_of_table(request: HttpRequest, view: MatchView, can_edit: bool) -> Mapping[str, Any]:
    """``table_group`` and ``rematch_url`` for a match a group took in (one query; none for
    a match no group follows, or a device that does not know its group)."""
    secret = device_secret(request)
    if not view.row.followed or not secret:
        return {}
    links = DeviceGroup.objects.filter(group=OuterRef("group_id"), device_digest=digest(secret))
    play = (
        Play.objects.filter(match_id=view.row.pk)
        .select_related("group")
        .annotate(known=Exists(links), editing=Exists(links.filter(can_edit=True)))
        .first()
    )
    if play is None or not play.known:
        return {}
    group = play.group
    part: dict[str, Any] = {"table_group": TableGroup(group.name, reverse("groups:group", args=[group.pk]))}
    if play.editing:
        address = reverse("groups:new-match", args=[group.pk, view.row.game])
        part["rematch_url"] = f"{address}?from={view.row.pk}"
    return part
