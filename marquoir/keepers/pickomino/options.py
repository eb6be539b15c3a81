"""Pickomino's table options, one model for the API, the set-up page, the store and the engine:
two house rules about the tile turned face down after a bust, each off unless asked for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from marquoir.games.pickomino import Options
from marquoir.tables.kit import TableOptions


class OptionsSchema(TableOptions):
    """Pickomino's table options: two booleans, missing ones off (any other value: ``bad_options``)."""

    shorter_game: bool = False
    flip_without_return: bool = False

    def engine(self) -> Options:
        return Options(shorter_game=self.shorter_game, flip_without_return=self.flip_without_return)

    @classmethod
    def form_fields(cls) -> dict[str, forms.Field]:
        return {
            "shorter_game": forms.BooleanField(
                required=False,
                label=gettext_lazy("Shorter game"),
                help_text=gettext_lazy(
                    "After a bust, the highest tile is turned face down even if it is the one just given back."
                ),
            ),
            "flip_without_return": forms.BooleanField(
                required=False,
                label=gettext_lazy("Turn a tile even with nothing to give back"),
                help_text=gettext_lazy(
                    "A bust with an empty stack still turns the highest tile face down (the rulebook does not)."
                ),
            ),
        }
