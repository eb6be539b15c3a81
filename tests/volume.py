"""Counts what the property tests played, for the summary pytest prints at the end."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Volume:
    games: int = 0
    actions: int = 0

    def record(self, *, actions: int) -> None:
        self.games += 1
        self.actions += actions


PROPERTY_VOLUME = Volume()
