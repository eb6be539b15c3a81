"""The new-match form: names in seating order, who starts, the two table options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from marquoir.games.pickomino import MAX_PLAYERS

from .messages import message_for
from .services import NAME_MAX_LENGTH, ServiceError, clean_player_names


class NewMatchForm(forms.Form):
    """Up to seven name fields; empty ones are left out. Seating order is the order typed."""

    first = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, initial=0, required=False)
    shorter_game = forms.BooleanField(
        required=False,
        label=_("Shorter game"),
        help_text=_("After a bust, the highest tile is turned face down even if it is the one just given back."),
    )
    flip_without_return = forms.BooleanField(
        required=False,
        label=_("Turn a tile even with nothing to give back"),
        help_text=_("A bust with an empty stack still turns the highest tile face down (the rulebook does not)."),
    )

    assistant = forms.BooleanField(
        required=False,
        label=_("Turn assistant"),
        help_text=_("Odds and advice while entering dice. Off by default: some tables call it cheating."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(MAX_PLAYERS):
            self.fields[f"name_{seat}"] = forms.CharField(
                required=False,
                max_length=NAME_MAX_LENGTH,
                strip=True,
                label=_("Player %(number)s") % {"number": seat + 1},
            )

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in range(MAX_PLAYERS)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        seats = [(seat, cleaned.get(f"name_{seat}") or "") for seat in range(MAX_PLAYERS)]
        filled = [(seat, name) for seat, name in seats if name.strip()]
        starter_seat = cleaned.get("first") or 0
        try:
            cleaned["players"] = clean_player_names([name for _seat, name in filled])
        except ServiceError as error:
            raise forms.ValidationError(message_for(error.code, error.reason, error.params)) from None
        seats_filled = [seat for seat, _name in filled]
        # The radio names a row of the form; empty rows above it shift the starter up.
        cleaned["first_index"] = seats_filled.index(starter_seat) if starter_seat in seats_filled else 0
        if starter_seat not in seats_filled:
            raise forms.ValidationError(_("The player who starts must have a name."))
        cleaned["options"] = {
            "shorter_game": bool(cleaned.get("shorter_game")),
            "flip_without_return": bool(cleaned.get("flip_without_return")),
        }
        return cleaned
