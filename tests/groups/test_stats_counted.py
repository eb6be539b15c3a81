"""A group's stats from real matches played through the services, every number counted by hand.

The group is Ada, Ben and Cy. Five matches, played in this order (each ends before the next
starts, so this is also the order they ended):

1. Pickomino, Ada and Ben (Ada starts): Ada takes 21, Ben steals it, Ada takes 22, Ben busts
   (the 21 goes back, the 36 is turned face down), then they take the 14 tiles left in turn.
   Ada 22 21 24 26 28 30 32 34 = 1+1+1+2+2+3+3+4 = 17 worms; Ben 23 25 27 29 31 33 35 =
   1+2+2+3+3+4+4 = 19 worms. Ben wins. Ada: 0 busts, 0 steals, best tile 34; Ben: 1 bust,
   1 steal, best tile 35.
2. Pickomino, Ada and Ben (Ada starts): Ada takes 36, Ben steals it, which is undone; Ben
   takes 35, then the 14 tiles left in turn, from 34 down. Ada 36 34 32 30 28 26 24 22 = 20,
   Ben 35 33 31 29 27 25 23 21 = 20; the tie goes to the highest tile, Ada's 36. Ada wins.
   Neither busts nor steals (the undone steal does not count), best tiles 36 and 35.
3. Yahtzee, Ada and Ben: Ada's sheet makes every box and the upper bonus (318, one
   Yahtzee); Ben scores a Yahtzee of 6s that is undone, then scratches his Yahtzee box (106,
   no Yahtzee, upper 21: no bonus). Ada wins.
4. Score sheet "Rummy", Ada, Ben and Cy, one round: 10, 10, 5. Ada and Ben share the win.
5. Score sheet "Rummy", Ada, Ben and Cy, one round: 2, 7, 4. Ben wins.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from django.test import Client

from marquoir.groups import services
from marquoir.groups.models import Group
from marquoir.groups.selectors import stats_of
from marquoir.groups.stats import GroupStats, PlayerLine, Rivalry, Section
from marquoir.tables.models import Match
from tests.groups.owned import attach_owned

from .conftest import BUST, GROUPS, SOLO_YAHTZEE, UNDO, Made, act, box, finished_sheet, is_over, new_match, steal, take

pytestmark = pytest.mark.django_db

ADA, BEN = 0, 1

PICKOMINO_1 = [
    take(21),  # Ada [21]
    steal(21, ADA),  # Ben steals it: Ben [21], Ada []
    take(22),  # Ada [22]
    BUST,  # Ben busts: 21 back on the grill, 36 turned face down
    *(take(tile) for tile in (21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35)),  # Ada, Ben, Ada…
]
PICKOMINO_2 = [
    take(36),  # Ada [36]
    steal(36, ADA),  # Ben steals it…
    UNDO,  # …taken back: Ben to play again
    take(35),  # Ben [35]
    *(take(tile) for tile in range(34, 20, -1)),  # Ada 34, Ben 33, Ada 32… Ben 21
]
BEN_YAHTZEE = [
    box("ones", 1, 2, 3, 4, 5),  # 1
    box("twos", 2, 3, 4, 5, 6),  # 2
    box("threes", 3, 1, 1, 2, 2),  # 3
    box("fours", 4, 1, 1, 2, 2),  # 4
    box("fives", 5, 1, 1, 2, 2),  # 5
    box("sixes", 6, 1, 1, 2, 2),  # 6: upper 21, no bonus
    box("three_of_a_kind", 1, 2, 3, 4, 5),  # 0
    box("four_of_a_kind", 1, 2, 3, 4, 5),  # 0
    box("full_house", 1, 2, 3, 4, 5),  # 0
    box("small_straight", 1, 2, 3, 4, 5),  # 30
    box("large_straight", 1, 2, 3, 4, 5),  # 40
    box("yahtzee", 1, 2, 3, 4, 5),  # 0: scratched
    box("chance", 1, 2, 3, 4, 5),  # 15; 21 + 85 = 106
]


def play_the_evening(group: Group) -> list[Match]:
    """The five matches of the module's docstring, each attached to the group once over."""
    first = new_match("pickomino", ("Ada", "Ben"))
    act(first, *PICKOMINO_1)
    second = new_match("pickomino", ("Ada", "Ben"))
    act(second, *PICKOMINO_2)
    third = new_match("yahtzee", ("Ada", "Ben"))
    for turn, (ada, ben) in enumerate(zip(SOLO_YAHTZEE, BEN_YAHTZEE, strict=True)):
        act(third, ada)
        if turn == 0:
            act(third, box("yahtzee", 6, 6, 6, 6, 6), UNDO)  # Ben's 50, taken back
        act(third, ben)
    matches = [
        first,
        second,
        third,
        finished_sheet(("Ada", "Ben", "Cy"), (10, 10, 5), "Rummy"),
        finished_sheet(("Ada", "Ben", "Cy"), (2, 7, 4), "Rummy"),
    ]
    for match in matches:
        assert is_over(match)
        attach_owned(group=group, match_id=match.id)
    return matches


@pytest.fixture
def stats(made: Made) -> GroupStats:
    play_the_evening(made.group)
    return stats_of(made.group)[0]


def line(section: Section, name: str) -> PlayerLine:
    return next(line for line in section.players if line.member.name == name)


def record(player: PlayerLine) -> tuple[int, int, float, int, int]:
    return (player.plays, player.wins, player.win_rate, player.longest_streak, player.current_streak)


def figures(player: PlayerLine) -> dict[str, float | int | None]:
    return {value.figure.key: value.value for value in player.figures}


def rivalries(section: Section) -> list[tuple[str, str, int, int, int, int]]:
    return [
        (
            rivalry.first.name,
            rivalry.second.name,
            rivalry.played,
            rivalry.first_ahead,
            rivalry.second_ahead,
            rivalry.level,
        )
        for rivalry in section.head_to_head
    ]


def section(stats: GroupStats, key: str) -> Section:
    return next(section for section in stats.games if section.key == key)


def test_the_plays_the_summaries_come_from_are_as_counted(made: Made) -> None:
    play_the_evening(made.group)

    _stats, plays = stats_of(made.group)

    # Newest first: the two sheets, Yahtzee, the two Pickomino matches.
    assert [(play.game, play.summary.scores, play.summary.winners) for play in plays] == [
        ("sheet", (2, 7, 4), (1,)),
        ("sheet", (10, 10, 5), (0, 1)),
        ("yahtzee", (318, 106), (ADA,)),
        ("pickomino", (20, 20), (ADA,)),
        ("pickomino", (17, 19), (BEN,)),
    ]


def test_overall_plays_wins_rates_and_streaks(stats: GroupStats) -> None:
    overall = stats.overall

    assert overall.plays == 5
    # Ada: lost 1, won 2, 3 and 4 (shared), lost 5: 3 of 5, longest run 3, none running.
    # Ben: won 1, lost 2 and 3, won 4 (shared) and 5: 3 of 5, longest run 2, 2 running.
    # Cy: lost 4 and 5.
    assert [(player.member.name, *record(player)) for player in overall.players] == [
        ("Ada", 5, 3, 0.6, 3, 0),
        ("Ben", 5, 3, 0.6, 2, 2),
        ("Cy", 2, 0, 0.0, 0, 0),
    ]
    # Scores of different games do not add up, and the overall section has no figures.
    assert all(player.average is None and player.best is None for player in overall.players)
    assert all(player.figures == () for player in overall.players)


def test_overall_head_to_head_adds_up_every_game(stats: GroupStats) -> None:
    # Ada–Ben, 5 together: Ada ahead in 2 (Pickomino 2, Yahtzee), Ben in 2 (Pickomino 1,
    # Rummy 2), level in Rummy 1. Ada–Cy, the two Rummy: Ada ahead in the first (1st vs
    # 3rd), Cy in the second (2nd vs 3rd). Ben–Cy: Ben ahead in both.
    assert rivalries(stats.overall) == [
        ("Ada", "Ben", 5, 2, 2, 1),
        ("Ada", "Cy", 2, 1, 1, 0),
        ("Ben", "Cy", 2, 2, 0, 0),
    ]


def test_the_games_come_most_played_first_then_by_name(stats: GroupStats) -> None:
    assert [(section.key, section.game, section.name, section.plays) for section in stats.games] == [
        ("pickomino", "pickomino", "Pickomino", 2),
        ("sheet:rummy", "sheet", "Rummy", 2),
        ("yahtzee", "yahtzee", "Yahtzee", 1),
    ]


def test_pickomino_averages_best_scores_and_figures(stats: GroupStats) -> None:
    pickomino = section(stats, "pickomino")

    ada, ben = line(pickomino, "Ada"), line(pickomino, "Ben")
    # One win each: ranked by name. Ada lost then won; Ben won then lost.
    assert [player.member.name for player in pickomino.players] == ["Ada", "Ben"]
    assert record(ada) == (2, 1, 0.5, 1, 1)
    assert record(ben) == (2, 1, 0.5, 1, 0)
    assert (ada.average, ada.best) == (18.5, 20)  # (17 + 20) / 2, best 20
    assert (ben.average, ben.best) == (19.5, 20)  # (19 + 20) / 2, best 20
    # Busts per game: Ada 0 in 2; Ben 1 in 2 = 0.5. Steals: Ben 1 (the undone one left
    # out). Best tile: Ada 36 (match 2), Ben 35 (the 36 he stole was undone).
    assert figures(ada) == {"busts": 0.0, "steals": 0, "best_tile": 36}
    assert figures(ben) == {"busts": 0.5, "steals": 1, "best_tile": 35}
    assert rivalries(pickomino) == [("Ada", "Ben", 2, 1, 1, 0)]


def test_yahtzee_totals_yahtzees_and_the_bonus_rate(stats: GroupStats) -> None:
    yahtzee = section(stats, "yahtzee")

    ada, ben = line(yahtzee, "Ada"), line(yahtzee, "Ben")
    assert [player.member.name for player in yahtzee.players] == ["Ada", "Ben"]
    assert record(ada) == (1, 1, 1.0, 1, 1)
    assert record(ben) == (1, 0, 0.0, 0, 0)
    # Ada: upper 3+6+9+12+15+18 = 63 + 35, lower 27+22+25+30+40+50+26 = 220: 318.
    # Ben: upper 1+2+3+4+5+6 = 21, lower 30+40+15 = 85: 106.
    assert (ada.average, ada.best) == (318, 318)
    assert (ben.average, ben.best) == (106, 106)
    # Ada: one Yahtzee (the 50), bonus earned in her one match: rate 1. Ben: his Yahtzee
    # of 6s was undone, so none; no bonus: rate 0.
    assert figures(ada) == {"yahtzees": 1, "upper_bonus": 1.0}
    assert figures(ben) == {"yahtzees": 0, "upper_bonus": 0.0}
    assert rivalries(yahtzee) == [("Ada", "Ben", 1, 1, 0, 0)]


def test_a_shared_win_counts_for_each_winner(stats: GroupStats) -> None:
    rummy = section(stats, "sheet:rummy")

    # Ben won both (the first shared with Ada); Ada won the first; Cy neither.
    assert [(player.member.name, *record(player)) for player in rummy.players] == [
        ("Ben", 2, 2, 1.0, 2, 2),
        ("Ada", 2, 1, 0.5, 1, 0),
        ("Cy", 2, 0, 0.0, 0, 0),
    ]
    # Averages: Ben (10 + 7) / 2, Ada (10 + 2) / 2, Cy (5 + 4) / 2; best the highest.
    assert [(player.average, player.best) for player in rummy.players] == [(8.5, 10), (6.0, 10), (4.5, 5)]
    assert all(player.figures == () for player in rummy.players)  # a sheet has none
    # Ada–Ben: level in the first, Ben ahead in the second. Ada–Cy: one each. Ben–Cy: Ben twice.
    assert rivalries(rummy) == [("Ada", "Ben", 2, 0, 1, 1), ("Ada", "Cy", 2, 1, 1, 0), ("Ben", "Cy", 2, 2, 0, 0)]


def test_the_api_answers_the_same_numbers(made: Made, client: Client) -> None:
    play_the_evening(made.group)

    answer: dict[str, Any] = client.get(f"{GROUPS}/{made.group.id}/stats").json()

    overall = {player["name"]: player for player in answer["overall"]["players"]}
    assert (overall["Ada"]["wins"], overall["Ada"]["longest_streak"], overall["Ben"]["current_streak"]) == (3, 3, 2)
    assert math.isclose(overall["Ada"]["win_rate"], 0.6)
    pickomino = next(game for game in answer["games"] if game["key"] == "pickomino")
    ben = next(player for player in pickomino["players"] if player["name"] == "Ben")
    assert [(figure["key"], figure["kind"], figure["value"]) for figure in ben["figures"]] == [
        ("busts", "per_game", 0.5),
        ("steals", "total", 1),
        ("best_tile", "best", 35),
    ]
    assert [figure["label"] for figure in ben["figures"]] == ["Busts per game", "Steals", "Highest tile"]


def test_an_undo_after_the_stats_were_read_takes_the_match_out(made: Made) -> None:
    matches = play_the_evening(made.group)
    act(matches[-1], UNDO)  # the last Rummy is no longer over

    stats = stats_of(made.group)[0]

    # Ada's record without match 5: lost 1, won 2, 3, 4: still 3 wins, now of 4, and running.
    # Ben: won 1, lost 2 and 3, won 4: 2 of 4. Cy: lost 4.
    assert stats.overall.plays == 4
    assert [(player.member.name, *record(player)) for player in stats.overall.players] == [
        ("Ada", 4, 3, 0.75, 3, 3),
        ("Ben", 4, 2, 0.5, 1, 1),
        ("Cy", 1, 0, 0.0, 0, 0),
    ]
    assert section(stats, "sheet:rummy").plays == 1


def test_a_rivalry_is_listed_in_the_groups_order(made: Made) -> None:
    play_the_evening(made.group)
    ada = made.group.members.get(name="Ada")
    services.member_rename(group=made.group, member_id=ada.pk, name="Zoé")  # now last by name

    stats = stats_of(made.group)[0]

    first: Rivalry = stats.overall.head_to_head[0]
    assert (first.first.name, first.second.name, first.first_ahead, first.second_ahead) == ("Zoé", "Ben", 2, 2)
    assert [player.member.name for player in stats.overall.players] == ["Ben", "Zoé", "Cy"]  # 3 wins each: by name
