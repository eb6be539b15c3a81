"""A group's stats (marquoir/groups/stats.py): a small history counted by hand, and properties
over random histories, checked against a plain recount written for the tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.groups.records import Member, PlayRecord
from marquoir.groups.stats import OVERALL_KEY, FigureValue, GroupStats, PlayerLine, Rivalry, Section, group_stats
from marquoir.tables.summary import MatchSummary, StatFigure

ANA, BEN, CHLOE, DEV = Member(1, "Ana"), Member(2, "Ben"), Member(3, "Chloé"), Member(4, "Dev")
MEMBERS = (ANA, BEN, CHLOE, DEV)
BUSTS = StatFigure("busts", "Busts per game", "per_game")
STEALS = StatFigure("steals", "Steals", "total")
BEST_TILE = StatFigure("best_tile", "Best tile", "best")
WENT_OUT = StatFigure("went_out", "Went out first", "rate")
FIGURES = {"pickomino": (BUSTS, STEALS, BEST_TILE), "sheet": (WENT_OUT,)}
T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def play(
    number: int,
    game: str,
    seated: Sequence[Member],
    scores: Sequence[float],
    ranks: Sequence[int],
    winners: Sequence[int],
    figures: Sequence[Mapping[str, int]] = (),
    *,
    over: bool = True,
    game_name: str | None = None,
    highest_wins: bool = True,
) -> PlayRecord:
    """The ``number``-th play of the history, ending ``number`` hours after T0."""
    return PlayRecord(
        id=f"play-{number}",
        game=game,
        game_name=game_name or game.capitalize(),
        started_at=T0 + timedelta(hours=number, minutes=-30),
        ended_at=T0 + timedelta(hours=number),
        members=tuple(member.id for member in seated),
        first=0,
        summary=MatchSummary(
            scores=tuple(scores),
            ranks=tuple(ranks),
            winners=tuple(winners),
            figures=tuple(figures),
            over=over,
            highest_wins=highest_wins,
        ),
    )


def pick(busts: int, steals: int, best_tile: int) -> dict[str, int]:
    return {"busts": busts, "steals": steals, "best_tile": best_tile}


# Four Pickomino plays, one Pickomino play not over, two "Skyjo" sheets kept lowest-wins.
HISTORY = (
    # 1: Ana 10, Ben 7, Chloé 3: Ana wins.
    play(
        1, "pickomino", (ANA, BEN, CHLOE), (10, 7, 3), (1, 2, 3), (0,), (pick(1, 0, 30), pick(2, 1, 27), pick(0, 0, 24))
    ),
    # 2: Ana 8, Ben 8, Dev 2: Ana and Ben share the win.
    play(
        2, "pickomino", (ANA, BEN, DEV), (8, 8, 2), (1, 1, 3), (0, 1), (pick(0, 2, 33), pick(1, 0, 29), pick(3, 0, 21))
    ),
    # 3: Ana 5, Ben 12, Chloé 6: Ben wins.
    play(
        3, "pickomino", (ANA, BEN, CHLOE), (5, 12, 6), (3, 1, 2), (1,), (pick(2, 0, 26), pick(0, 1, 35), pick(1, 1, 28))
    ),
    # 4: not over (Dev far ahead): counts nowhere.
    play(4, "pickomino", (CHLOE, DEV), (1, 40), (2, 1), (), (pick(5, 0, 21), pick(0, 9, 36)), over=False),
    # 5: a Skyjo sheet, lowest wins: Chloé 12, Dev 30, Ana 18: Chloé wins.
    play(
        5,
        "sheet",
        (CHLOE, DEV, ANA),
        (12, 30, 18),
        (1, 3, 2),
        (0,),
        ({"went_out": 1}, {"went_out": 0}, {"went_out": 0}),
        game_name="Skyjo",
        highest_wins=False,
    ),
    # 6: the same game, titled in lower case: Dev 9, Chloé 15: Dev wins.
    play(
        6,
        "sheet",
        (DEV, CHLOE),
        (9, 15),
        (1, 2),
        (0,),
        ({"went_out": 1}, {"went_out": 0}),
        game_name="skyjo",
        highest_wins=False,
    ),
    # 7: Ana 4, Ben 9: Ben wins.
    play(7, "pickomino", (ANA, BEN), (4, 9), (2, 1), (1,), (pick(1, 0, 25), pick(0, 3, 31))),
)


@pytest.fixture(scope="module")
def stats() -> GroupStats:
    return group_stats(HISTORY, MEMBERS, FIGURES)


def line_of(section: Section, member: Member) -> PlayerLine:
    [line] = [line for line in section.players if line.member == member]
    return line


def values(line: PlayerLine) -> dict[str, float | int | None]:
    return {value.figure.key: value.value for value in line.figures}


def test_a_section_per_game_most_played_first_and_overall_only_finished_plays_count(stats: GroupStats) -> None:
    assert [(section.key, section.game, section.name, section.plays) for section in stats.games] == [
        ("pickomino", "pickomino", "Pickomino", 4),  # plays 1, 2, 3, 7 (4 is not over)
        ("sheet:skyjo", "sheet", "skyjo", 2),  # plays 5, 6: one game whatever the case (named as the latest)
    ]
    assert (stats.overall.key, stats.overall.game, stats.overall.name, stats.overall.plays) == (
        OVERALL_KEY,
        None,
        "",
        6,
    )
    assert stats.overall.last_played == T0 + timedelta(hours=7)
    assert [section.last_played for section in stats.games] == [T0 + timedelta(hours=7), T0 + timedelta(hours=6)]
    assert stats.overall.figures == ()
    assert stats.games[0].figures == (BUSTS, STEALS, BEST_TILE)


def test_a_shared_win_counts_for_each_winner_and_players_rank_by_wins_then_rate_then_name(stats: GroupStats) -> None:
    pickomino = stats.games[0]
    # Ben won 2 (shared), 3, 7; Ana won 1, 2 (shared); Chloé and Dev none: by name.
    assert [(line.member, line.plays, line.wins) for line in pickomino.players] == [
        (BEN, 4, 3),
        (ANA, 4, 2),
        (CHLOE, 2, 0),
        (DEV, 1, 0),  # play 4, not over, does not count
    ]
    assert [line.win_rate for line in pickomino.players] == [0.75, 0.5, 0.0, 0.0]
    # Overall, Dev (1 of 3) comes before Chloé (1 of 4) on the win rate.
    assert [(line.member, line.plays, line.wins) for line in stats.overall.players] == [
        (BEN, 4, 3),
        (ANA, 5, 2),
        (DEV, 3, 1),
        (CHLOE, 4, 1),
    ]
    assert line_of(stats.overall, DEV).win_rate == pytest.approx(1 / 3)


def test_average_and_best_score_per_game_and_none_overall(stats: GroupStats) -> None:
    pickomino, skyjo = stats.games
    # Ana: (10 + 8 + 5 + 4) / 4; Ben: (7 + 8 + 12 + 9) / 4; Chloé: (3 + 6) / 2; Dev: 2.
    assert [(line.member, line.average, line.best) for line in pickomino.players] == [
        (BEN, 9.0, 12),
        (ANA, 6.75, 10),
        (CHLOE, 4.5, 6),
        (DEV, 2.0, 2),
    ]
    # Lowest wins: the best is the lowest score. Chloé (12 + 15) / 2, Dev (30 + 9) / 2, Ana 18.
    assert [(line.member, line.average, line.best) for line in skyjo.players] == [
        (CHLOE, 13.5, 12),
        (DEV, 19.5, 9),
        (ANA, 18.0, 18),
    ]
    assert all(line.average is None and line.best is None and line.figures == () for line in stats.overall.players)


def test_streaks_run_over_the_members_own_plays_in_the_order_they_ended(stats: GroupStats) -> None:
    pickomino, skyjo = stats.games
    # Pickomino: Ana won, won (shared), lost, lost; Ben lost, won (shared), won, won.
    assert (line_of(pickomino, ANA).longest_streak, line_of(pickomino, ANA).current_streak) == (2, 0)
    assert (line_of(pickomino, BEN).longest_streak, line_of(pickomino, BEN).current_streak) == (3, 3)
    assert (line_of(pickomino, CHLOE).longest_streak, line_of(pickomino, CHLOE).current_streak) == (0, 0)
    # Skyjo: Chloé won then lost; Dev lost then won.
    assert (line_of(skyjo, CHLOE).longest_streak, line_of(skyjo, CHLOE).current_streak) == (1, 0)
    assert (line_of(skyjo, DEV).longest_streak, line_of(skyjo, DEV).current_streak) == (1, 1)
    # Overall, across games in time: Chloé lost 1, lost 3, won 5, lost 6; Dev lost 2, lost 5, won 6.
    assert (line_of(stats.overall, CHLOE).longest_streak, line_of(stats.overall, CHLOE).current_streak) == (1, 0)
    assert (line_of(stats.overall, DEV).longest_streak, line_of(stats.overall, DEV).current_streak) == (1, 1)
    assert (line_of(stats.overall, ANA).longest_streak, line_of(stats.overall, ANA).current_streak) == (2, 0)


def test_each_kind_of_figure_adds_up_its_own_way(stats: GroupStats) -> None:
    pickomino, skyjo = stats.games
    # per_game: the mean (Ana 1+0+2+1 over 4); total: the sum (Ben 1+0+1+3); best: the highest tile.
    assert values(line_of(pickomino, ANA)) == {"busts": 1.0, "steals": 2, "best_tile": 33}
    assert values(line_of(pickomino, BEN)) == {"busts": 0.75, "steals": 5, "best_tile": 35}
    assert values(line_of(pickomino, CHLOE)) == {"busts": 0.5, "steals": 1, "best_tile": 28}
    assert values(line_of(pickomino, DEV)) == {"busts": 3.0, "steals": 0, "best_tile": 21}
    # rate: the share of plays where the figure is 1 (Chloé went out first in 1 of 2).
    assert [values(line) for line in skyjo.players] == [{"went_out": 0.5}, {"went_out": 0.5}, {"went_out": 0.0}]
    assert line_of(skyjo, ANA).figures == (FigureValue(WENT_OUT, 0.0),)


def test_head_to_head_counts_who_finished_ahead_with_same_ranks_level(stats: GroupStats) -> None:
    pickomino, skyjo = stats.games
    # Ana–Ben: 1 Ana ahead, 2 level (shared win), 3 and 7 Ben ahead. Chloé and Dev only met in
    # play 4 (not over): no rivalry.
    assert pickomino.head_to_head == (
        Rivalry(ANA, BEN, played=4, first_ahead=1, second_ahead=2, level=1),
        Rivalry(ANA, CHLOE, played=2, first_ahead=1, second_ahead=1, level=0),  # 1 Ana, 3 Chloé
        Rivalry(ANA, DEV, played=1, first_ahead=1, second_ahead=0, level=0),
        Rivalry(BEN, CHLOE, played=2, first_ahead=2, second_ahead=0, level=0),
        Rivalry(BEN, DEV, played=1, first_ahead=1, second_ahead=0, level=0),
    )
    # Ranks already say who did better where the lowest wins: in 5, Chloé 1st, Ana 2nd, Dev 3rd.
    assert skyjo.head_to_head == (
        Rivalry(ANA, CHLOE, played=1, first_ahead=0, second_ahead=1, level=0),
        Rivalry(ANA, DEV, played=1, first_ahead=1, second_ahead=0, level=0),
        Rivalry(CHLOE, DEV, played=2, first_ahead=1, second_ahead=1, level=0),  # 5 Chloé, 6 Dev
    )
    # Overall: the two games added up.
    assert stats.overall.head_to_head == (
        Rivalry(ANA, BEN, played=4, first_ahead=1, second_ahead=2, level=1),
        Rivalry(ANA, CHLOE, played=3, first_ahead=1, second_ahead=2, level=0),
        Rivalry(ANA, DEV, played=2, first_ahead=2, second_ahead=0, level=0),
        Rivalry(BEN, CHLOE, played=2, first_ahead=2, second_ahead=0, level=0),
        Rivalry(BEN, DEV, played=1, first_ahead=1, second_ahead=0, level=0),
        Rivalry(CHLOE, DEV, played=2, first_ahead=1, second_ahead=1, level=0),
    )


def test_head_to_head_follows_the_order_the_members_are_listed_in() -> None:
    stats = group_stats(HISTORY, (DEV, CHLOE, BEN, ANA), FIGURES)
    assert stats.overall.head_to_head[0] == Rivalry(DEV, CHLOE, played=2, first_ahead=1, second_ahead=1, level=0)
    assert stats.overall.head_to_head[-1] == Rivalry(BEN, ANA, played=4, first_ahead=2, second_ahead=1, level=1)


def test_a_seat_of_someone_outside_the_group_counts_for_nobody_but_the_play_counts() -> None:
    guest = Member(99, "Guest")
    history = (play(1, "pickomino", (guest, ANA), (9, 5), (1, 2), (0,)),)
    stats = group_stats(history, MEMBERS, FIGURES)
    assert stats.overall.plays == stats.games[0].plays == 1
    assert [(line.member, line.plays, line.wins) for line in stats.overall.players] == [(ANA, 1, 0)]
    assert stats.overall.head_to_head == ()


def test_a_play_without_figures_leaves_them_unknown_rather_than_zero() -> None:
    imported = play(1, "pickomino", (ANA, BEN), (9, 5), (1, 2), (0,))  # no figures at all
    kept = play(2, "pickomino", (ANA, BEN), (6, 7), (2, 1), (1,), (pick(2, 1, 30), {"busts": 0}))
    stats = group_stats((imported, kept), MEMBERS, FIGURES)
    pickomino = stats.games[0]
    assert values(line_of(pickomino, ANA)) == {"busts": 2.0, "steals": 1, "best_tile": 30}  # play 2 only
    assert values(line_of(pickomino, BEN)) == {"busts": 0.0, "steals": None, "best_tile": None}


def test_figures_are_found_by_stats_key_before_the_games_key() -> None:
    sheet = play(1, "sheet", (ANA,), (3,), (1,), (0,), ({"went_out": 1},), game_name="Skyjo")
    stats = group_stats((sheet,), MEMBERS, {"sheet:skyjo": (WENT_OUT,), "sheet": ()})
    assert stats.games[0].figures == (WENT_OUT,)
    assert group_stats((sheet,), MEMBERS, {"sheet": ()}).games[0].figures == ()


def test_odd_summaries_from_an_import_neither_crash_nor_count_a_missing_seat() -> None:
    odd_ranks = play(1, "pickomino", (ANA, BEN, CHLOE), (3, 2, 1), (0, 300, -5), (0,))  # taken as 1, 63, 1
    short = play(2, "pickomino", (ANA, BEN), (4,), (1, 2), (0,))  # Ben's seat has no score: not counted
    stats = group_stats((odd_ranks, short), MEMBERS, FIGURES)
    assert [(line.member, line.plays, line.wins) for line in stats.overall.players] == [
        (ANA, 2, 2),
        (BEN, 1, 0),
        (CHLOE, 1, 0),
    ]
    assert stats.overall.head_to_head == (
        Rivalry(ANA, BEN, played=1, first_ahead=1, second_ahead=0, level=0),
        Rivalry(ANA, CHLOE, played=1, first_ahead=0, second_ahead=0, level=1),
        Rivalry(BEN, CHLOE, played=1, first_ahead=0, second_ahead=1, level=0),
    )


def test_no_finished_play_gives_empty_sections() -> None:
    stats = group_stats((HISTORY[3],), MEMBERS, FIGURES)
    assert stats == GroupStats(
        overall=Section(OVERALL_KEY, None, "", 0, (), (), (), None),
        games=(),
    )


# Properties over random histories ---------------------------------------------------------

GAMES = (("pickomino", "Pickomino"), ("yahtzee", "Yahtzee"), ("sheet", "Skyjo"), ("sheet", "skyjo"), ("sheet", "Rummy"))
RANDOM_FIGURES = {"pickomino": (BUSTS, STEALS, BEST_TILE), "yahtzee": (WENT_OUT,), "sheet:rummy": (STEALS,)}


# A seat's figures: each one there or not (an imported play may carry none).
seat_figures = st.fixed_dictionaries(
    {}, optional={key: st.integers(0, 3) for key in ("busts", "steals", "best_tile", "went_out")}
)


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[PlayRecord], list[Member]]:
    count = draw(st.integers(min_value=1, max_value=6))
    members = [
        Member(100 + number, draw(st.sampled_from(["Ana", "ana", "Ben", "Zoé", "<b>"]))) for number in range(count)
    ]
    plays = []
    for number in range(draw(st.integers(min_value=0, max_value=25))):
        game, name = draw(st.sampled_from(GAMES))
        seated = draw(st.lists(st.sampled_from(members), min_size=1, max_size=count, unique=True))
        if draw(st.booleans()):  # now and then someone from outside the group
            seated.append(Member(7, "Guest"))
        scores = draw(st.lists(st.integers(-20, 20), min_size=len(seated), max_size=len(seated)))
        highest_wins = game != "sheet" or draw(st.booleans())
        ranks = [1 + sum((other > score) if highest_wins else (other < score) for other in scores) for score in scores]
        over = draw(st.integers(0, 4)) > 0
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1) if over else ()
        if draw(st.integers(0, 9)) == 0:  # an imported play may name no winner
            winners = ()
        figures = draw(st.lists(seat_figures, min_size=len(seated), max_size=len(seated)))
        plays.append(
            PlayRecord(
                id=f"p{number:03}",
                game=game,
                game_name=name,
                started_at=T0,
                ended_at=T0 + timedelta(minutes=draw(st.integers(0, 5))),  # often the same minute: ids decide
                members=tuple(member.id for member in seated),
                first=0,
                summary=MatchSummary(
                    tuple(scores), tuple(ranks), winners, tuple(figures), over=over, highest_wins=highest_wins
                ),
            )
        )
    return plays, members


@dataclass
class _Count:
    """The plain recount: one member's plays in a section, in time order."""

    won: list[bool] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    figures: list[Mapping[str, int]] = field(default_factory=list)


@dataclass
class _Recounted:
    """A section as the plain recount sees it."""

    plays: int
    lines: dict[int, tuple[int, int, int, int]]
    """By member id: plays, wins, longest streak, current streak."""
    rivalries: dict[tuple[int, int], list[int]]
    """By (first, second) member ids: played, first ahead, second ahead, level."""
    counts: dict[int, _Count]


def recount(plays: list[PlayRecord], members: list[Member]) -> dict[str, _Recounted]:
    """Every section's numbers counted the slow, obvious way, by section key."""
    finished = sorted((play for play in plays if play.summary.over), key=lambda play: (play.ended_at, play.id))
    known = {member.id: member for member in members}
    sections: dict[str, list[PlayRecord]] = {OVERALL_KEY: finished}
    for play in finished:
        sections.setdefault(play.stats_key, []).append(play)
    counted: dict[str, _Recounted] = {}
    for key, section_plays in sections.items():
        counts: dict[int, _Count] = {}
        rivalries: dict[tuple[int, int], list[int]] = {}
        for play in section_plays:
            summary = play.summary
            for seat, member_id in enumerate(play.members):
                if member_id in known:
                    count = counts.setdefault(member_id, _Count())
                    count.won.append(seat in summary.winners)
                    count.scores.append(summary.scores[seat])
                    count.figures.append(summary.figures[seat])
            for one, first in enumerate(members):
                for second in members[one + 1 :]:
                    if first.id in play.members and second.id in play.members:
                        first_rank = summary.ranks[play.members.index(first.id)]
                        second_rank = summary.ranks[play.members.index(second.id)]
                        tally = rivalries.setdefault((first.id, second.id), [0, 0, 0, 0])
                        tally[0] += 1
                        tally[1 if first_rank < second_rank else 2 if second_rank < first_rank else 3] += 1
        lines = {}
        for member_id, count in counts.items():
            streaks, run = [0], 0
            for won in count.won:
                run = run + 1 if won else 0
                streaks.append(run)
            lines[member_id] = (len(count.won), sum(count.won), max(streaks), run)
        counted[key] = _Recounted(len(section_plays), lines, rivalries, counts)
    return counted


@settings(max_examples=200, deadline=None)
@given(histories())
def test_the_stats_match_a_plain_recount(history: tuple[list[PlayRecord], list[Member]]) -> None:
    plays, members = history
    stats = group_stats(plays, members, RANDOM_FIGURES)
    expected = recount(plays, members)
    assert {section.key for section in (stats.overall, *stats.games)} == set(expected)
    for section in (stats.overall, *stats.games):
        counted = expected[section.key]
        assert section.plays == counted.plays
        assert {
            line.member.id: (line.plays, line.wins, line.longest_streak, line.current_streak)
            for line in section.players
        } == counted.lines
        assert {
            (rivalry.first.id, rivalry.second.id): [
                rivalry.played,
                rivalry.first_ahead,
                rivalry.second_ahead,
                rivalry.level,
            ]
            for rivalry in section.head_to_head
        } == counted.rivalries
        if section.game is None:
            continue
        assert section.figures == tuple(RANDOM_FIGURES.get(section.key, RANDOM_FIGURES.get(section.game, ())))
        for line in section.players:
            own = counted.counts[line.member.id].scores
            assert line.average == pytest.approx(sum(own) / len(own))
            highest_wins = plays_of(plays, section.key)[-1].summary.highest_wins
            assert line.best == (max(own) if highest_wins else min(own))
            for value in line.figures:
                carried = [
                    seat[value.figure.key]
                    for seat in counted.counts[line.member.id].figures
                    if value.figure.key in seat
                ]
                if not carried:
                    assert value.value is None
                elif value.figure.kind == "per_game":
                    assert value.value == pytest.approx(sum(carried) / len(carried))
                elif value.figure.kind == "total":
                    assert value.value == sum(carried)
                elif value.figure.kind == "best":
                    assert value.value == max(carried)
                else:
                    assert value.value == pytest.approx(carried.count(1) / len(carried))


def plays_of(plays: list[PlayRecord], key: str) -> list[PlayRecord]:
    """A section's finished plays, in time order."""
    return sorted(
        (play for play in plays if play.summary.over and play.stats_key == key),
        key=lambda play: (play.ended_at, play.id),
    )


@settings(max_examples=100, deadline=None)
@given(histories())
def test_wins_rates_and_rivalries_stay_within_bounds(history: tuple[list[PlayRecord], list[Member]]) -> None:
    plays, members = history
    stats = group_stats(plays, members, RANDOM_FIGURES)
    for section in (stats.overall, *stats.games):
        for line in section.players:
            assert 0 <= line.current_streak <= line.longest_streak <= line.wins <= line.plays <= section.plays
            assert 0 <= line.win_rate <= 1
            assert line.win_rate == line.wins / line.plays
        for rivalry in section.head_to_head:
            assert rivalry.played > 0
            assert rivalry.first_ahead + rivalry.second_ahead + rivalry.level == rivalry.played
        order = [member.id for member in members]
        pairs = [(order.index(rivalry.first.id), order.index(rivalry.second.id)) for rivalry in section.head_to_head]
        assert pairs == sorted(pairs)
        assert all(first < second for first, second in pairs)
        assert [(-line.wins, -line.win_rate, line.member.name.casefold()) for line in section.players] == sorted(
            (-line.wins, -line.win_rate, line.member.name.casefold()) for line in section.players
        )


@settings(max_examples=100, deadline=None)
@given(histories())
def test_every_play_with_a_winner_from_the_group_gives_at_least_one_win(
    history: tuple[list[PlayRecord], list[Member]],
) -> None:
    plays, members = history
    stats = group_stats(plays, members, RANDOM_FIGURES)
    ids = {member.id for member in members}
    for section in (stats.overall, *stats.games):
        finished = [play for play in plays if play.summary.over and section.game in (None, play.game)]
        finished = [play for play in finished if section.game is None or play.stats_key == section.key]
        with_winners = [play for play in finished if any(play.members[seat] in ids for seat in play.summary.winners)]
        assert sum(line.wins for line in section.players) >= len(with_winners)


@settings(max_examples=100, deadline=None)
@given(histories(), st.randoms(use_true_random=False))
def test_the_order_of_the_plays_given_does_not_matter(
    history: tuple[list[PlayRecord], list[Member]], shuffler: random.Random
) -> None:
    plays, members = history
    shuffled = list(plays)
    shuffler.shuffle(shuffled)
    assert group_stats(shuffled, members, RANDOM_FIGURES) == group_stats(plays, members, RANDOM_FIGURES)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_the_overall_plays_are_the_games_plays_added_up(history: tuple[list[PlayRecord], list[Member]]) -> None:
    plays, members = history
    stats = group_stats(plays, members, RANDOM_FIGURES)
    assert stats.overall.plays == sum(section.plays for section in stats.games)
    assert stats.overall.plays == sum(play.summary.over for play in plays)
    assert [section.plays for section in stats.games] == sorted(
        (section.plays for section in stats.games), reverse=True
    )
    for member in members:
        overall = [line for line in stats.overall.players if line.member == member]
        per_game = [line for section in stats.games for line in section.players if line.member == member]
        assert sum(line.plays for line in overall) == sum(line.plays for line in per_game)
        assert sum(line.wins for line in overall) == sum(line.wins for line in per_game)
