"""The new-match form, for any game: names in seating order, who starts, the game's options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .keepers import ScoreKeeper
from .messages import message_for
from .models import Match
from .names import NAME_MAX_LENGTH, clean_player_names
from .outcome import ServiceError
from .selectors import match_view


class NewMatchForm(forms.Form):
    """As many name fields as the game takes players; empty ones are left out. Seating order
    is the order typed. The game's table options come from its keeper."""

    assistant = forms.BooleanField(
        required=False,
        label=_("Turn assistant"),
        help_text=_("Odds and advice while entering dice. Off by default: some tables call it cheating."),
    )

    def __init__(self, keeper: ScoreKeeper, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keeper = keeper
        self.fields["first"] = forms.IntegerField(
            min_value=0, max_value=keeper.max_players - 1, initial=0, required=False
        )
        for seat in range(keeper.max_players):
            self.fields[f"name_{seat}"] = forms.CharField(
                required=False,
                max_length=NAME_MAX_LENGTH,
                strip=True,
                label=_("Player %(number)s") % {"number": seat + 1},
            )
        self.option_names = list(keeper.options_form_fields())
        self.fields.update(keeper.options_form_fields())
        if not keeper.has_assistant:
            del self.fields["assistant"]

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in range(self.keeper.max_players)]

    # The seats shown at once: a score sheet takes twenty, whose empty rows would push the
    # table's options far down a phone; the others fold under "More players".
    SEATS_SHOWN = 8

    def first_seats(self) -> list[tuple[int, forms.BoundField]]:
        return list(enumerate(self.name_fields()))[: self.SEATS_SHOWN]

    def more_seats(self) -> list[tuple[int, forms.BoundField]]:
        return list(enumerate(self.name_fields()))[self.SEATS_SHOWN :]

    def more_seats_used(self) -> bool:
        """Whether a folded seat holds a name (a rematch of many, a refused form): shown open."""
        return any(field.value() for _seat, field in self.more_seats())

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_names] + ([self["assistant"]] if "assistant" in self.fields else [])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        seats = [(seat, cleaned.get(f"name_{seat}") or "") for seat in range(self.keeper.max_players)]
        filled = [(seat, name) for seat, name in seats if name.strip()]
        starter_seat = cleaned.get("first") or 0
        try:
            cleaned["players"] = clean_player_names([name for _seat, name in filled], self.keeper)
        except ServiceError as error:
            raise forms.ValidationError(
                message_for(error.code, error.reason, error.params, (), self.keeper.wordings)
            ) from None
        seats_filled = [seat for seat, _name in filled]
        # The radio names a row of the form; empty rows above it shift the starter up.
        cleaned["first_index"] = seats_filled.index(starter_seat) if starter_seat in seats_filled else 0
        if starter_seat not in seats_filled:
            raise forms.ValidationError(_("The player who starts must have a name."))
        cleaned["options"] = self.keeper.options_from_form(cleaned)
        cleaned["assistant"] = bool(cleaned.get("assistant"))
        return cleaned


def rematch_initial(keeper: ScoreKeeper, previous: Match) -> dict[str, Any]:
    """The set-up form of a rematch of ``previous``: the same table again, seated as the
    game's rules say (Mölkky: the lowest score first), its options and assistant."""
    seated = list(range(len(previous.players)))
    order = keeper.rematch_order(match_view(previous)) if previous.game == keeper.key else None
    seats = order if order is not None and sorted(order) == seated else seated
    initial: dict[str, Any] = {f"name_{index}": previous.players[seat] for index, seat in enumerate(seats)}
    first = 0 if order is not None else previous.first  # the game's order: its first starts
    initial.update(first=first, assistant=previous.assistant, **previous.options)
    return initial
