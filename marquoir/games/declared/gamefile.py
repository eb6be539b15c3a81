"""The game file: one game's scoring declared as data (TOML), read by one schema.

The models below are the schema. ``docs/game-file.schema.json`` is generated from them
(``python -m marquoir.games.declared.schema``), so what an editor checks while a file is
written is what Marquoir reads; the tests check that the published schema is up to date
and validate every game file against it with an independent validator (``jsonschema``).

Reading a file is two steps: this schema (kinds, names, bounds, one of each key), then
``marquoir.games.declared.game.compile_game`` (every formula compiled once, every name a
formula uses known where it is used). Either step refuses a file with a ``GameFileError``
that names the file, the field and, for a formula, the position in it.

Pure data: no Django, no I/O beyond reading the file asked for.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from marquoir.games.meta import CATEGORIES

from .upgrade import is_first_version, upgrade

KEY_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"
"""A game's, an input's, an option's or a category's key: how the API and formulas name it."""

MAX_FORMULA_LENGTH = 600
"""A formula's longest source: with at most ``MAX_COMPREHENSIONS`` comprehensions over lists
of at most a few hundred values, this bounds what one evaluation can do (``formulas``)."""

Key = Annotated[str, Field(pattern=KEY_PATTERN)]
Formula = Annotated[str, Field(min_length=1, max_length=MAX_FORMULA_LENGTH)]
"""A CEL expression (https://cel.dev): see docs/game-file.md for the names it may use."""
Bound = int | Formula
"""A bound: a whole number, or a formula giving one (Skull King's bids: ``"cards"``)."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Words(Strict):
    """A text in both languages."""

    en: str = Field(min_length=1, max_length=300)
    fr: str = Field(min_length=1, max_length=300)

    def get(self, language: str) -> str:
        """The text in ``language`` ("fr", "fr-ca"…), English otherwise."""
        return self.fr if language.startswith("fr") else self.en


class Box(Strict):
    """The box's facts: the catalog reads them."""

    names: Words
    other_names: list[str] = Field(default_factory=list, description="names people search by (Les Aventuriers du Rail)")
    original_name: str
    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    players: tuple[int, int] = Field(description="the fewest and most players the keeper takes")
    minutes: int = Field(ge=1, le=600)
    age: int = Field(ge=1, le=99)
    designers: list[str] = Field(default_factory=list)
    publishers: list[str] = Field(default_factory=list)
    released: int = Field(ge=1000, le=2100)
    bgg_id: int | None = Field(None, ge=1)
    sources: list[str] = Field(min_length=1, description="where the rules were checked")

    @model_validator(mode="after")
    def _players_in_order(self) -> Box:
        least, most = self.players
        if not 1 <= least <= most <= 20:
            raise ValueError("players must be [fewest, most], 1 <= fewest <= most <= 20")
        return self


class Choice(Strict):
    value: int | str
    label: Words


class OptionDef(Strict):
    """A table option: a flag, a whole number, one of a few choices, a list of numbers, or a
    text (one line the table types: the score sheet's title)."""

    key: Key
    kind: Literal["flag", "number", "choice", "numbers", "text"]
    label: Words
    hint: Words | None = None
    default: bool | int | str | list[int] | None = None
    default_formula: Formula | None = Field(None, description="a default that depends on the players")
    min: int | None = None
    max: int | None = None
    max_length: int = Field(
        20, ge=1, le=200, description="numbers: the longest list (50 at most); text: its most characters"
    )
    choices: list[Choice] = Field(default_factory=list)
    nullable: bool = Field(False, description="the option may be left empty (null): off (Papayoo's points limit)")

    @model_validator(mode="after")
    def _default_given(self) -> OptionDef:
        if self.default is not None and self.default_formula is not None:
            raise ValueError("an option has one of default and default_formula, not both")
        if self.default is None and self.default_formula is None and not self.nullable:
            raise ValueError("an option needs a default (or default_formula), unless it is nullable")
        if self.kind == "choice" and not self.choices:
            raise ValueError("a choice option needs its choices")
        if self.kind == "numbers" and self.max_length > 50:
            raise ValueError("a numbers option lists 50 numbers at most (max_length)")
        if self.kind == "text" and self.default is not None and not isinstance(self.default, str):
            raise ValueError("a text option's default is a text")
        return self


class Part(Strict):
    """One count of a group input (7 Wonders' compass, Ticket to Ride's routes of 3), or one
    field of a record (Kingdomino's property: its squares, its crowns, its terrain)."""

    key: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_]{0,31}$")]
    label: Words
    min: int = 0
    max: int | None = Field(None, description="required, but for a part that is one of names")
    default: int | None = Field(None, description="taken when the part is left out; none: the part is required")
    names: list[Choice] = Field(
        default_factory=list, description="records: the part is one of these names (a terrain), not a number"
    )
    optional: bool = Field(False, description="records: the part may be left out (null)")

    @model_validator(mode="after")
    def _bounds(self) -> Part:
        if not self.names and (self.max is None or self.max < self.min):
            raise ValueError("a part needs its max, at least its min (or its names)")
        return self

    @property
    def most(self) -> int:
        """The part's largest number (a part of names has none: 0)."""
        return self.max if self.max is not None else 0


class InputDef(Strict):
    """What the table enters: per player (an array in seat order) or once per round."""

    key: Key
    per: Literal["player", "team", "round", "turn"] = Field(
        description="an array in seat (or team) order, one value per round, or one for the player whose turn it is"
    )
    kind: Literal["count", "points", "flag", "player", "choice", "counts", "list", "records", "groups"]
    label: Words
    hint: Words | None = None
    min: Bound | None = None
    max: Bound | None = None
    step: int | None = Field(None, ge=2, description="the value must be a multiple of it (bonuses of 10)")
    choices: list[int] = Field(default_factory=list)
    names: list[Choice] = Field(
        default_factory=list,
        description="list: the names it may hold (Qwixx's rows); choice: its values as names (Scrabble's play or pass)",
    )
    parts: list[Part] = Field(default_factory=list, description="counts: its counts; records: each record's fields")
    max_length: int | None = Field(None, ge=1, le=50, description="list, records, groups: the most entries")
    group_length: int | None = Field(None, ge=1, le=50, description="groups: the most numbers in one group")
    group_label: Words | None = Field(None, description="groups: one group's name on the pad ('Roll': Roll 1, Roll 2…)")
    distinct: bool = Field(False, description="list: no value twice (refused as invalid)")
    arrangement: list[list[int | str]] | None = Field(
        None, description="list: its values in rows as the pad draws them (Mölkky's pins as they stand)"
    )
    default: int | bool | str | list[Any] | None = Field(
        None, description="taken when the input is left out: the input is optional"
    )
    when: Formula | None = Field(None, description="the input is taken only when this holds (an option's input)")
    unsaid: Words | None = Field(
        None, description="a player input with a default: its default choice in words ('Nobody'; else 'Not said')"
    )

    @property
    def per_side(self) -> bool:
        """Given once per side: each player, or each team in a team game."""
        return self.per in ("player", "team")

    @model_validator(mode="after")
    def _kind_needs(self) -> InputDef:
        if self.kind in {"count", "points"} and (self.min is None or self.max is None):
            raise ValueError(f"a {self.kind} input needs min and max")
        if self.kind == "choice" and bool(self.choices) == bool(self.names):
            raise ValueError("a choice input needs its choices (numbers) or its names, not both")
        if self.kind == "choice" and any(not isinstance(choice.value, str) for choice in self.names):
            raise ValueError("a choice's names are texts (its numbers are its choices)")
        names = [choice.value for choice in self.names]
        if self.kind == "choice" and names and self.default is not None and self.default not in names:
            raise ValueError("a choice's default is one of its names")
        if isinstance(self.default, str) and not (self.kind == "choice" and self.names):
            raise ValueError("a default that is a text is a choice of names")
        if self.kind == "counts" and not self.parts:
            raise ValueError("a counts input needs its parts")
        # A list of numbers is a box per number on the pad: known when the game loads, and few.
        numbers_known = isinstance(self.min, int) and isinstance(self.max, int) and 0 <= self.max - self.min < 50
        if self.kind == "list" and not self.names and not numbers_known:
            raise ValueError("a list input needs its names, or whole-number min and max at most 50 apart")
        if self.kind == "records" and not self.parts:
            raise ValueError("a records input needs its parts (each record's fields)")
        if self.kind in {"list", "records", "groups"} and self.max_length is None:
            raise ValueError(f"a {self.kind} input needs max_length")
        if self.kind == "groups" and (
            self.group_length is None
            or self.group_label is None
            or not (isinstance(self.min, int) and isinstance(self.max, int) and self.min <= self.max)
        ):
            raise ValueError("a groups input needs group_length, group_label, and whole-number min and max")
        if self.kind == "groups" and self.default not in (None, []):
            raise ValueError("a groups input's default is no group ([])")
        if self.kind == "list":
            values = self.list_values()
            if self.arrangement is not None:
                drawn = [value for row in self.arrangement for value in row]
                if sorted(map(str, drawn)) != sorted(map(str, values)):
                    raise ValueError("a list's arrangement draws each of its values once, and only them")
            if self.default is not None and (
                not isinstance(self.default, list) or any(value not in values for value in self.default)
            ):
                raise ValueError("a list's default is a list of its values")
        if self.unsaid is not None and (self.kind != "player" or self.default is None):
            raise ValueError("unsaid words the default choice of a player input that has one")
        if self.when is not None and self.default is None:
            raise ValueError("an input taken only 'when' something holds needs the default it has otherwise")
        return self

    def list_values(self) -> list[int | str]:
        """A list input's values: its names, or its numbers from min to max."""
        if self.names:
            return [choice.value for choice in self.names]
        if isinstance(self.min, int) and isinstance(self.max, int):
            return list(range(self.min, self.max + 1))
        return []


class Derived(Strict):
    """A value worked out from the inputs, named for the formulas after it."""

    key: Key
    per: Literal["player", "round"]
    formula: Formula


class Spread(Strict):
    """The best score over every way of sharing ``units`` out among ``over`` (7 Wonders'
    wild science symbols): ``formula`` is evaluated for each share and the highest kept."""

    units: Formula
    over: dict[Key, Formula] = Field(min_length=1, max_length=6, description="each name and its value before the share")
    formula: Formula


class Category(Strict):
    """A category of points; a round's points are the sum of its categories."""

    key: Key
    label: Words
    formula: Formula | None = None
    best: Spread | None = None
    when: Formula | None = Field(
        None,
        description="the category counts (and shows) only when this holds: a variant's bonus (Kingdomino's Harmony)",
    )

    @model_validator(mode="after")
    def _one_way(self) -> Category:
        if (self.formula is None) == (self.best is None):
            raise ValueError("a category needs exactly one of formula and best")
        return self


class Check(Strict):
    """A rule the inputs must keep, per player or across the table; refused as ``rule``.
    As a warning (``warnings``), the round is recorded and the table told (Qwixx's sheets
    entered before the game's end)."""

    key: Key
    per: Literal["player", "round"]
    holds: Formula = Field(description="true when the inputs keep the rule")
    message: Words = Field(description="what the table reads when it is broken; %(player)s names the player")
    source: str = Field(min_length=1, description="the rule it comes from")


class OptionCheck(Strict):
    """A rule the options must keep for the players at the table; refused as ``invalid``."""

    key: Key
    holds: Formula
    message: Words


class EndRule(Strict):
    """A rule that ends the game after a round (or a turn) when ``when`` holds: a target
    reached, one player left, a phase completed, an instant win. Its key is the match's
    ``ended_by``; ``winners`` (a list of sides) names who wins at once, whatever the ranking
    says (7 Wonders Duel's supremacy, Codenames' assassin); ``result`` is a cooperative
    game's outcome (won or lost)."""

    key: Key
    label: Words = Field(description="what ended the game, in a few words: 'Military supremacy'")
    when: Formula = Field(description="read after the round: the state (totals, out, leaders, each carried value)")
    winners: Formula | None = Field(
        None, description="the sides (seats, or teams in a team game) who win at once: an instant win"
    )
    result: Literal["won", "lost"] | None = Field(None, description="a cooperative game: the table's result")


class End(Strict):
    """When the game ends: after a number of rounds, once a total reaches a target, when one
    of its ``rules`` holds, and/or when the table says so (``{"type": "end"}``); whichever
    comes first. ``unless`` holds the game on while it is true (Flip 7's tie for the first
    place), but for a rule that names its winners."""

    rounds: Bound | None = Field(None, description="a formula giving null: no set number of rounds")
    target: Bound | None = Field(
        None, description="the game ends after the round in which a total reaches it; a formula giving null: none"
    )
    rules: list[EndRule] = Field(default_factory=list, max_length=20)
    unless: Formula | None = Field(None, description="the game goes on while this holds (read as the rules are)")
    table_decides: bool = False

    @model_validator(mode="after")
    def _some_end(self) -> End:
        if self.rounds is None and self.target is None and not self.table_decides and not self.rules:
            raise ValueError("a game needs an end: rounds, target, rules or table_decides")
        return self


class Carried(Strict):
    """A value each side keeps from round to round (Mölkky's misses in a row, Phase 10's
    phase): its start, then ``after`` gives it after each round or turn. A ``track`` is
    shown beside the points (the band, the State), and the end and the ranking read it."""

    key: Key
    label: Words
    initial: int | bool
    track: bool = Field(False, description="shown beside the points: a second track (Phase 10's phase)")


class Turns(Strict):
    """A game entered a turn at a time (Mölkky): each action is the turn of the player whose
    turn it is; a player who is ``out`` is skipped."""

    others: dict[Key, Formula] = Field(
        default_factory=dict,
        description="each other player's total and carried values after a turn, reading thrower (its values after)",
    )


class RankKey(Strict):
    """One key of the ranking, in order: the first that differs decides. The key ``total`` is
    the score; keys before it rank ahead of it (still in the game, the phase reached), keys
    after it break ties on it (the most coins). A formula reads the side's values after the
    last round: ``total``, ``out``, each carried value, and that round's inputs."""

    key: Key
    label: Words | None = Field(None, description="a tie-break's words: 'the most coins' (the total needs none)")
    value: Formula | None = Field(None, description="its value for a side; none: the value of that name (total)")
    order: Literal["highest", "lowest"] | Formula = Field(
        "highest", description="the higher or the lower ranks first; a formula on the options giving one of them"
    )

    @property
    def higher(self) -> bool:
        """The higher value ranks first (a formula order reads as its usual case: highest)."""
        return self.order != "lowest"

    @property
    def formula(self) -> str:
        return self.value or self.key

    @property
    def words(self) -> Words:
        """What decides, in a few words (the total's: its key)."""
        return self.label or Words(en=self.key, fr=self.key)


class Rematch(Strict):
    """How "New match with the same players" seats them: sorted on ``by`` (a formula on each
    side's values at the end), ``order`` first; ties keep their seats."""

    by: Formula
    order: Literal["highest", "lowest"] = "lowest"


class Teams(Strict):
    """A game played in partnerships: the scoring's side is the team. ``size``: the fewest
    and most players of a team; ``formed``: each seat's team when the table gives none,
    a formula on ``seat`` and ``players`` (partners opposite: ``seat % (players / 2)``)."""

    size: tuple[int, int] = (2, 2)
    formed: Formula | None = Field(None, description="each seat's team index when the table gives no teams")

    @model_validator(mode="after")
    def _size(self) -> Teams:
        if not 1 <= self.size[0] <= self.size[1] <= 10:
            raise ValueError("teams.size is [fewest, most] players of a team, 1 to 10")
        return self


class Final(Strict):
    """What the table enters as it ends the game, ``{"type": "end", "inputs": {…}}``: the
    count the end makes (Scrabble's tiles left on each rack). Scored as one more round for
    every side at once, read as a round is (its inputs per player, team or round, its derived
    values, points, checks and ``after``), after which the game is over."""

    inputs: list[InputDef] = Field(min_length=1, max_length=20)
    derived: list[Derived] = Field(default_factory=list)
    points: list[Category] = Field(min_length=1, max_length=20)
    checks: list[Check] = Field(default_factory=list)
    after: dict[Key, Formula] = Field(
        default_factory=dict,
        description="each side's total and carried values after the count (by default the total plus what it gained)",
    )


class Cooperative(Strict):
    """A game the table wins or loses together: one side, the whole table. ``won`` gives the
    result at an end no rule worded (the rounds played, the table's end)."""

    won: Formula = Field(description="the table won, read at the end as the end's rules are")
    score: bool = Field(True, description="the game has a shared score (cards kept, missions)")


class Said(Strict):
    """A sentence the log and the bar say of a round where ``when`` holds (the contract and
    its outcome: "Ada and Cy: 110, made"): ``text`` in each language, ``{name}`` standing for
    a round's input or derived value (a player input: the side's name; a choice of names: its
    label; a number: as a number)."""

    text: Words
    when: Formula | None = Field(None, description="read after the round's checks, at the round's level")

    def names(self) -> set[str]:
        """The round's values the text says, by name."""
        return set(SAID_NAME.findall(self.text.en)) | set(SAID_NAME.findall(self.text.fr))


SAID_NAME = re.compile(r"\{([a-z0-9_]+)\}")


class Figure(Strict):
    """A figure of the game's own for a group's stats: summed over a match's rounds, then
    over matches as ``kind`` says (per game, in all, the best, or the share of matches at 1)."""

    key: Key
    label: Words
    value: Formula
    kind: Literal["per_game", "total", "best", "rate"] = "per_game"


class ReferenceRow(Strict):
    label: Words
    value: Words


class Example(Strict):
    """A worked example: inputs, then what the rules give. Every one runs as a test."""

    name: str
    players: int = Field(ge=1, le=20)
    options: dict[str, Any] = Field(default_factory=dict)
    before: list[int] | None = Field(None, description="each side's total before the first round given")
    rounds: list[dict[str, Any]] = Field(min_length=1)
    points: list[int] | None = Field(None, description="the points of the last round")
    totals: list[int] | None = None
    breakdown: list[dict[str, int]] | None = None
    over: bool | None = None
    winners: list[int] | None = None
    order: list[int] | None = Field(None, description="the standings' seats, best first")
    refused: Literal["invalid", "rule", "match_over"] | None = Field(
        None,
        description="the last round is refused so (match_over: a round after the game's end); the set-up "
        "itself (its options, its teams) refused as invalid says so too",
    )
    rule: str | None = Field(None, description="the check that refuses it")
    warnings: list[str] | None = Field(None, description="the warnings the last round raises, by key")
    teams: list[list[int]] | None = Field(None, description="a team game: the seats of each team (else as formed)")
    ended_by: str | None = Field(None, description="the end rule that ended the game")
    result: Literal["won", "lost"] | None = Field(None, description="a cooperative game's result")
    carried: list[dict[str, int | bool]] | None = Field(None, description="each side's carried values after")
    end: dict[str, Any] | None = Field(
        None,
        description="the table ends the game after the rounds: the end's count by key (a file with final), or {}",
    )


class GameFile(Strict):
    """One game declared as data (the file's second version: docs/game-file.md)."""

    schema_version: Literal[2] = Field(
        2, description="the format's version: 2 (a first-version file is upgraded as it is read)"
    )
    key: Key
    scored: Literal["rounds", "end"] = Field(description="round after round, or once at the end of the game")
    entry: Literal["rounds", "turns"] = Field(
        "rounds",
        description="a round entered for every side at once, or a turn at a time (the player whose turn it is)",
    )
    play: Literal["competitive", "teams", "cooperative"] = Field(
        "competitive", description="each for themselves, in partnerships (the side is the team), or the table together"
    )
    box: Box
    options: list[OptionDef] = Field(default_factory=list)
    tables: dict[Key, Any] = Field(default_factory=dict, description="lookup tables the formulas read as tables.<key>")
    teams: Teams | None = None
    inputs: list[InputDef] = Field(min_length=1, max_length=60)
    derived: list[Derived] = Field(default_factory=list)
    points: list[Category] = Field(min_length=1, max_length=20)
    checks: list[Check] = Field(default_factory=list)
    warnings: list[Check] = Field(default_factory=list, description="checks that only warn: the round is recorded")
    carry: list[Carried] = Field(default_factory=list, max_length=10)
    after: dict[Key, Formula] = Field(
        default_factory=dict,
        description="a side's total and carried values after its round or turn, by key (total: total + gained)",
    )
    out: Formula | None = Field(
        None, description="the side no longer plays (takes no more turns): read after each round"
    )
    turns: Turns | None = None
    option_checks: list[OptionCheck] = Field(default_factory=list)
    end: End
    ranking: list[RankKey] = Field(min_length=1, max_length=10, description="what ranks the sides, in order")
    cooperative: Cooperative | None = None
    final: Final | None = Field(
        None, description="what the table enters as it ends the game: the end's count (Scrabble's tiles left)"
    )
    rematch: Rematch | None = None
    figures: list[Figure] = Field(default_factory=list)
    said: list[Said] = Field(default_factory=list, max_length=10, description="what the log says of a round")
    reference: list[ReferenceRow] = Field(default_factory=list)
    examples: list[Example] = Field(default_factory=list)

    @property
    def total_rank(self) -> int:
        """Where the total stands in the ranking."""
        return next(index for index, key in enumerate(self.ranking) if key.key == "total")

    @property
    def winner(self) -> Literal["highest", "lowest"]:
        """The usual direction of the total (an order set by a formula reads as highest)."""
        return "lowest" if self.ranking[self.total_rank].order == "lowest" else "highest"

    @property
    def tiebreaks(self) -> list[RankKey]:
        """The keys after the total: the tie-break chain."""
        return self.ranking[self.total_rank + 1 :]

    @property
    def by_turns(self) -> bool:
        return self.entry == "turns"

    @model_validator(mode="after")
    def _keys_once(self) -> GameFile:
        for kind, keys in (
            ("option", [option.key for option in self.options]),
            (
                "input, derived or carried value",
                [item.key for item in self.inputs] + [item.key for item in self.derived] + [c.key for c in self.carry],
            ),
            ("category", [category.key for category in self.points]),
            (
                "check",
                [check.key for check in self.checks + self.warnings] + [check.key for check in self.option_checks],
            ),
            ("ranking key", [key.key for key in self.ranking]),
            ("end rule", [rule.key for rule in self.end.rules]),
            ("figure", [figure.key for figure in self.figures]),
        ):
            repeated = sorted({key for key in keys if keys.count(key) > 1})
            if repeated:
                raise ValueError(f"the {kind} {repeated[0]!r} is declared twice")
        if "total" not in [key.key for key in self.ranking]:
            raise ValueError("the ranking names the total (key = 'total'), where it stands among its keys")
        for key in self.ranking:
            if key.key != "total" and key.label is None:
                raise ValueError(f"ranking.{key.key}: a key but the total says in a few words what decides (label)")
        if self.scored == "end" and self.end.rounds != 1 and not isinstance(self.end.rounds, str):
            raise ValueError("a game scored at the end has end.rounds = 1 (or a formula: Kingdomino's Dynasty)")
        turns = self.by_turns
        if self.turns is not None and not turns:
            raise ValueError("a [turns] table is for a game entered by turns (entry = 'turns')")
        for item in self.inputs:
            if turns and item.per != "turn":
                raise ValueError(f"inputs.{item.key}: a game entered by turns takes per = 'turn' inputs only")
            if not turns and item.per == "turn":
                raise ValueError(f"inputs.{item.key}: per = 'turn' is for a game entered by turns")
            if item.per == "team" and self.play != "teams":
                raise ValueError(f"inputs.{item.key}: per = 'team' is for a game played in teams")
            if item.per == "player" and self.play != "competitive":
                # The side is the team (or the table): what the side scores is entered per side.
                raise ValueError(f"inputs.{item.key}: a {self.play} game takes inputs per team or per round")
        per_player = [item.per for item in self.derived] + [check.per for check in self.checks + self.warnings]
        if turns and "player" in per_player:
            # A turn is one player's: its values and rules are the thrower's, read at the round's level.
            raise ValueError("a game entered by turns has no per-player derived values, checks or warnings")
        if turns and self.play != "competitive":
            raise ValueError("a game entered by turns is played each for themselves")
        if (self.play == "teams") != (self.teams is not None):
            raise ValueError("a game played in teams has a [teams] table, and only such a game")
        if (self.play == "cooperative") != (self.cooperative is not None):
            raise ValueError("a cooperative game has a [cooperative] table, and only such a game")
        for rule in self.end.rules:
            if rule.result is not None and self.play != "cooperative":
                raise ValueError(f"end.rules.{rule.key}: a result (won, lost) is a cooperative game's")
            if rule.winners is not None and self.play == "cooperative":
                raise ValueError(f"end.rules.{rule.key}: a cooperative game's end has a result, not winners")
        if self.final is not None:
            if not self.end.table_decides:
                raise ValueError("final: the end's count is entered as the table ends the game (end.table_decides)")
            taken = {item.key for item in self.inputs} | {check.key for check in self.checks}
            for name in [item.key for item in self.final.inputs] + [check.key for check in self.final.checks]:
                if name in taken:
                    raise ValueError(f"final: {name!r} is already a round's input or check")
            counted = {category.key for category in self.points} & {category.key for category in self.final.points}
            if counted:
                raise ValueError(f"final: the category {sorted(counted)[0]!r} is already a round's")
            for item in self.final.inputs:
                if item.per == "turn" or (item.per == "team" and self.play != "teams"):
                    raise ValueError(f"final.inputs.{item.key}: the end's count is given per player, team or round")
                if item.per == "player" and self.play != "competitive":
                    raise ValueError(f"final.inputs.{item.key}: a {self.play} game takes inputs per team or per round")
        # What a sentence can say in words: a player, a choice, a number (a derived value too).
        sayable = {
            item.key
            for item in self.inputs
            if not item.per_side and item.kind in ("player", "choice", "count", "points")
        } | {item.key for item in self.derived if item.per == "round"}
        for index, sentence in enumerate(self.said):
            unknown = sorted(sentence.names() - sayable)
            if unknown:
                raise ValueError(f"said[{index}]: {{{unknown[0]}}} is no input or derived value of the round")
        settable = {"total", *(item.key for item in self.carry)}
        for name in [*self.after, *(self.final.after if self.final else ())]:
            if name not in settable:
                raise ValueError(f"after.{name}: {name!r} is neither total nor a carried value")
        for name in self.turns.others if self.turns else {}:
            if name not in settable:
                raise ValueError(f"turns.others.{name}: {name!r} is neither total nor a carried value")
        return self


class GameFileError(ValueError):
    """A game file Marquoir cannot take: the message names the file, the field and, for a
    formula, the line and column in it."""

    def __init__(self, source: str, field: str, problem: str, *, code: str = "", **params: Any) -> None:
        self.source, self.field, self.problem = source, field, problem
        # What went wrong as a code and its values, for a reader to word it in their own
        # language (a user's own game in the editor); ``problem`` is the author's English.
        self.code, self.params = code, params
        super().__init__(f"{source}: {field}: {problem}")

    def under(self, part: str) -> GameFileError:
        """The same fault, its field named within ``part`` of the file (``final.points.rack``)."""
        return GameFileError(self.source, f"{part}.{self.field}", self.problem, code=self.code, **self.params)


def parse_game_file(data: object, *, source: str = "<game file>") -> GameFile:
    """``data`` (a TOML or JSON document, decoded) read by the schema, or ``GameFileError``
    naming the first field wrong."""
    if is_first_version(data):
        data = upgrade(data)  # type: ignore[arg-type]
    try:
        return GameFile.model_validate(data)
    except ValidationError as failure:
        error = failure.errors()[0]
        context = {key: value for key, value in error.get("ctx", {}).items() if isinstance(value, int | str)}
        raise GameFileError(
            source, _dotted(error["loc"]), error["msg"], code=f"schema.{error['type']}", **context
        ) from None


def read_game_file(path: Path) -> GameFile:
    """The game file at ``path`` (TOML), read by the schema."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as failure:
        raise GameFileError(str(path), "(file)", str(failure), code="toml", line=toml_line(failure)) from None
    return parse_game_file(data, source=str(path))


def toml_line(failure: tomllib.TOMLDecodeError) -> int:
    """The line tomllib's error is at (its message says "(at line 3, column 5)")."""
    found = re.search(r"line (\d+)", str(failure))
    return int(found.group(1)) if found else 1


def _dotted(location: tuple[int | str, ...]) -> str:
    """pydantic's location as a path in the file: ``inputs[2].max``."""
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"
