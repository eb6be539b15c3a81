"""Attaching a match as its owners do: with the match's own write right (its edit token)."""

from __future__ import annotations

from marquoir.groups import services
from marquoir.groups.models import Group, Play
from marquoir.tables.services import edit_token_for


def attach_owned(*, group: Group, match_id: str) -> Play:
    """``services.play_attach`` with the match's edit token, as the phone that keeps its score."""
    return services.play_attach(group=group, match_id=match_id, match_token=edit_token_for(match_id))
