"""The new-match form, for any game: names in seating order, who starts, the game's options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from .keepers import ScoreKeeper
from .messages import message_for
from .models import Match
from .names import NAME_MAX_LENGTH, clean_player_names
from .outcome import ServiceError
from .selectors import match_view


class SeatChoicesWidget(forms.Widget):
    """One select per row of the set-up form, named ``<name>_<row>``; read, the list of them."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows

    def value_from_datadict(self, data: Mapping[str, Any], files: Any, name: str) -> list[str]:
        return [str(data.get(f"{name}_{row}", "")) for row in range(self.rows)]

    def value_omitted_from_data(self, data: Mapping[str, Any], files: Any, name: str) -> bool:
        return not any(f"{name}_{row}" in data for row in range(self.rows))


class SeatChoiceField(forms.Field):
    """A choice the set-up page asks on each row beside the name (a team game's team), among
    one list of ``choices``: its value is one choice per row ("" where none is made),
    ``initial`` the rows' defaults. A keeper puts it among its ``options_form_fields``; the
    page draws it on the rows, not with the table options, and its errors once above them.
    ``options_from_form`` reads it with ``cleaned["player_rows"]``, the players' rows in
    seating order, and may refuse it there (``forms.ValidationError({name: …})``)."""

    def __init__(
        self, *, rows: int, choices: Sequence[tuple[str, str]], initial: Sequence[str], label: str, **kwargs: Any
    ) -> None:
        super().__init__(label=label, initial=list(initial), required=False, widget=SeatChoicesWidget(rows), **kwargs)
        self.rows = rows
        self.choices = list(choices)

    def to_python(self, value: Any) -> list[str]:
        given = value if isinstance(value, list) else []
        allowed = {choice for choice, _text in self.choices}
        # A value no select offers (a forged form) is one not made: the keeper says what is missing.
        return [text if isinstance(text, str) and text in allowed else "" for text in given[: self.rows]]

    def row_values(self, value: Any) -> list[str]:
        """The choice shown on each row, from the bound field's value (a list, row by row)."""
        values = [str(item) for item in value] if isinstance(value, list) else []
        return (values + [""] * self.rows)[: self.rows]


@dataclass(frozen=True)
class SeatChoice:
    """One row's select of a ``SeatChoiceField``, as the page draws it."""

    name: str
    id: str
    label: str
    choices: Sequence[tuple[str, str]]
    value: str
    error_id: str


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
        options = keeper.options_form_fields()
        self.option_names = [name for name, field in options.items() if not isinstance(field, SeatChoiceField)]
        self.seat_choice_names = [name for name, field in options.items() if isinstance(field, SeatChoiceField)]
        self.fields.update(options)
        if not keeper.has_assistant:
            del self.fields["assistant"]

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in range(self.keeper.max_players)]

    # The seats shown at once: a score sheet takes twenty, whose empty rows would push the
    # table's options far down a phone; the others fold under "More players".
    SEATS_SHOWN = 8

    def rows(self) -> list[tuple[int, forms.BoundField, list[SeatChoice]]]:
        """Each row: its index, its name field and its selects (a team game's team)."""
        return [(seat, field, self.seat_choices(seat)) for seat, field in enumerate(self.name_fields())]

    def first_seats(self) -> list[tuple[int, forms.BoundField, list[SeatChoice]]]:
        return self.rows()[: self.SEATS_SHOWN]

    def more_seats(self) -> list[tuple[int, forms.BoundField, list[SeatChoice]]]:
        return self.rows()[self.SEATS_SHOWN :]

    def more_seats_used(self) -> bool:
        """Whether a folded seat holds a name (a rematch of many, a refused form): shown open."""
        return any(field.value() for _seat, field, _choices in self.more_seats())

    def seat_choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.seat_choice_names]

    def seat_choices(self, row: int) -> list[SeatChoice]:
        """The selects of one row, each with the value it shows (chosen, refused or by default)."""
        choices = []
        for bound in self.seat_choice_fields():
            field = cast(SeatChoiceField, bound.field)
            choices.append(
                SeatChoice(
                    name=f"{bound.html_name}_{row}",
                    id=f"{bound.auto_id}_{row}",
                    label=str(bound.label),
                    choices=field.choices,
                    value=field.row_values(bound.value())[row],
                    error_id=f"{bound.auto_id}-error" if bound.errors else "",
                )
            )
        return choices

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
        cleaned["player_rows"] = seats_filled  # whose is each row's choice (a team game's team)
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
