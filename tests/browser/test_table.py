"""The score keeper in a real phone browser against a real server: whole games, dice entry,
reloads, accessibility, and several phones at one table."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from marquoir.games.pickomino import GRILL, Action, Bust, Match, Setup, Take, standings

from .helpers import BrowserLog, MakePage, assert_accessible, shoot

pytestmark = pytest.mark.browser

TABLE_ADDRESS = re.compile(r"/en/tables/[A-Za-z0-9_-]{22}/$")


def start_match(page: Page, *names: str, first: int = 0) -> str:
    """Set up a match through the form; the table's path."""
    page.goto("/en/tables/new/pickomino/")
    for seat, name in enumerate(names):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.locator(f'input[name="first"][value="{first}"]').check()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(TABLE_ADDRESS)
    return urlsplit(page.url).path


def last_log_line(page: Page) -> str:
    return page.locator(".log__lines li .log__text").first.inner_text()


def ask(page: Page, total: int, *, worm: bool = True) -> None:
    """Type the turn's total to narrow the tiles to what it may claim."""
    entry = page.locator(".total-entry")
    if entry.get_attribute("open") is None:
        entry.locator("summary").click()
    page.get_by_label("Total of the kept dice").fill(str(total))
    page.get_by_label("A worm was kept").set_checked(worm)
    page.get_by_role("button", name="Show", exact=True).click()
    expect(page).to_have_url(re.compile(rf"total={total}"))


def record(page: Page, total: int, choice: str, *, log: str) -> None:
    """Tap the tile the rules give for ``total`` (``choice`` is its button's name) and wait for the log."""
    if not choice.startswith(f"Take {total} ") and not choice.startswith(f"Steal {total} "):
        ask(page, total)
    page.get_by_role("button", name=choice, exact=True).click()
    expect(page.locator(".log__lines li").first).to_contain_text(log)


def bust(page: Page, reason: str = "The roll showed no new face", *, log: str) -> None:
    page.locator(".bust-entry summary").click()
    page.get_by_role("button", name=reason, exact=True).click()
    expect(page.locator(".log__lines li").first).to_contain_text(log)


def test_a_whole_three_player_game_through_the_totals(make_page: MakePage):
    page = make_page()
    start_match(page, "Ada", "Ben", "Cy")
    expect(page.locator(".band__status")).to_have_text("Ada’s turn")
    shoot(page, "table-01-new-match")

    record(page, 30, "Take 30 from the grill", log="Ada took 30 from the grill (+3 worms).")
    ask(page, 30)  # Ben's 30: steal Ada's 30 or take 29 from the grill
    expect(page.get_by_role("button", name="Take 29 from the grill")).to_be_visible()
    expect(page.locator("#claim-form .claim, .steals .claim")).to_have_count(2)
    shoot(page, "table-02-steal-or-grill")
    page.get_by_role("button", name="Steal 30 from Ada").click()
    expect(page.locator(".log__lines li").first).to_contain_text("Ben stole 30 from Ada: 3 worms change hands.")
    record(page, 25, "Take 25 from the grill", log="Cy took 25")
    record(page, 33, "Take 33 from the grill", log="Ada took 33")
    bust(page, log="30 goes back to the grill (−3 worms). 36 is turned face down.")
    expect(page.locator(".slot--down")).to_have_count(1)
    shoot(page, "table-03-after-a-bust")

    record(page, 24, "Take 24 from the grill", log="Cy took 24")  # a mistake…
    page.locator(".bar__undo").get_by_role("button", name="Undo").click()  # …taken back
    expect(page.locator(".band__status")).to_have_text("Cy’s turn")
    expect(page.locator(".log__lines li.undone")).to_have_count(1)
    record(page, 26, "Take 26 from the grill", log="Cy took 26")

    for tile, name in zip((35, 34, 32, 31, 30, 29, 28, 27, 24, 23, 22, 21), ["Ada", "Ben", "Cy"] * 4, strict=True):
        record(page, tile, f"Take {tile} from the grill", log=f"{name} took {tile}")

    played: list[Action] = [Take(30, True), Take(30, True, 0), Take(25, True), Take(33, True), Bust(), Take(26, True)]
    played += [Take(tile, True, GRILL) for tile in (35, 34, 32, 31, 30, 29, 28, 27, 24, 23, 22, 21)]
    expected = Match.replay(Setup(3), played)
    assert expected.state.over
    winner = standings(expected.state)[0]
    names = ["Ada", "Ben", "Cy"]
    expect(page.locator(".band__status")).to_have_text(f"{names[winner.player]} wins with {winner.worms} worms.")
    expect(page.locator(".standings tbody tr")).to_have_count(3)
    expect(page.locator(".chart__line")).to_have_count(3)
    expect(page.locator(".claim")).to_have_count(0)
    shoot(page, "table-04-the-end")
    assert_accessible(page, "table-the-end")


def tap_dice(page: Page, *faces: str) -> None:
    """Enter a roll on the dice pad, one tap per die (``"5"``, ``"worm"``…)."""
    counted: dict[str, int] = {}
    for face in faces:
        name = "A die shows a worm" if face == "worm" else f"A die shows {face}"
        before = page.locator("#table").element_handle()
        page.get_by_role("link", name=name, exact=True).click()
        page.wait_for_function("table => !table.isConnected", arg=before)
        # The tap is in the address once the pad that counts it is drawn (a redraw of the
        # table by other news could otherwise let the next tap land on the pad before it).
        counted[face] = counted.get(face, 0) + 1
        expect(page).to_have_url(re.compile(f"roll=([^&]*%2C)?{face}%3A{counted[face]}(%2C|&|$)"))


def test_a_turn_entered_die_by_die(make_page: MakePage):
    page = make_page()
    start_match(page, "Ada", "Ben")
    page.get_by_role("link", name="Dice, roll by roll").click()
    tap_dice(page, "worm", "worm", "5", "5", "5", "1", "2", "3")
    page.get_by_role("link", name="Keep 2 worms").click()
    expect(page.locator(".dice-kept")).to_contain_text("Kept: 10 · 6 dice left")
    tap_dice(page, "5", "5", "5", "4", "4", "worm")
    expect(page.get_by_role("link", name="Keep 1 worm")).to_have_count(0)  # kept before: not offered again
    page.get_by_role("link", name="Keep 3 dice showing 5").click()
    expect(page.locator(".dice-kept")).to_contain_text("Kept: 25 · 3 dice left")
    shoot(page, "table-05-dice-entry")
    page.get_by_role("button", name="Take 25 from the grill").click()
    expect(page.locator(".log__lines li .log__text").first).to_have_text("Ada took 25 from the grill (+2 worms).")
    expect(page.locator(".band__status")).to_have_text("Ben’s turn")
    expect(page).to_have_url(TABLE_ADDRESS)  # the finished entry is gone from the address


def test_a_reload_in_the_middle_of_a_match_comes_back_to_the_same_table(make_page: MakePage):
    page = make_page()
    start_match(page, "Ada", "Ben", "Cy")
    record(page, 27, "Take 27 from the grill", log="Ada took 27")
    record(page, 31, "Take 31 from the grill", log="Ben took 31")
    before = page.locator("#table .player-list").inner_text(), page.locator(".log__lines").inner_text()
    page.reload()
    expect(page.locator(".band__status")).to_have_text("Cy’s turn")
    assert (page.locator("#table .player-list").inner_text(), page.locator(".log__lines").inner_text()) == before
    page.goto("/en/tables/")
    page.get_by_role("link", name=re.compile("Ada, Ben")).first.click()
    expect(page.locator(".band__status")).to_have_text("Cy’s turn")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_score_keeper_pages_have_no_serious_accessibility_finding(make_page: MakePage, scheme):
    page = make_page(color_scheme=scheme)
    log = BrowserLog.attach(page)
    page.goto("/en/tables/new/pickomino/")
    assert_accessible(page, f"new-match-{scheme}")
    start_match(page, "Ada", "Ben")
    record(page, 27, "Take 27 from the grill", log="Ada took 27")
    ask(page, 27)  # Ben: steal or grill, the richest screen
    expect(page.get_by_role("button", name="Steal 27 from Ada")).to_be_visible()
    assert_accessible(page, f"table-claims-{scheme}")
    page.get_by_role("link", name="Dice, roll by roll").click()
    tap_dice(page, "worm", "worm", "5", "5", "5", "1", "2", "3")
    expect(page.get_by_role("link", name="Keep 2 worms")).to_be_visible()
    assert_accessible(page, f"table-dice-{scheme}")
    shoot(page, f"table-06-dice-{scheme}", full_page=False)
    page.goto("/en/tables/")
    assert_accessible(page, f"my-matches-{scheme}")
    assert log.mentioning("Content Security Policy") == []


def keep_score_link(page: Page) -> str:
    link = page.get_by_role("link", name="Keep score too").get_attribute("href")
    assert link
    assert "#key=" in link
    return link


def test_a_second_phone_joins_with_the_link_and_sees_turns_live(make_page: MakePage):
    ada = make_page()
    table = start_match(ada, "Ada", "Ben")
    ben = make_page(locale="fr-FR")
    watcher = make_page()
    ben.goto(keep_score_link(ada).replace("/en/", "/fr/"))
    expect(ben).to_have_url(re.compile(r"/fr/tables/[A-Za-z0-9_-]{22}/$"))  # the token left the address
    expect(ben.locator(".bust-entry summary")).to_be_visible()
    watcher.goto(table)
    expect(watcher.get_by_text("You are watching this match")).to_be_visible()

    record(ada, 27, "Take 27 from the grill", log="Ada took 27")
    # Nobody reloads: the other phones redraw by themselves.
    expect(ben.locator(".log__lines li").first).to_contain_text("Ada prend le 27")
    expect(watcher.locator(".log__lines li").first).to_contain_text("Ada took 27")
    ben.locator(".bust-entry summary").click()
    ben.locator(".bust-reasons button").first.click()
    expect(ada.locator(".log__lines li").first).to_contain_text("Ben: bust")
    shoot(ben, "table-07-second-phone-fr")


def test_two_phones_recording_the_same_turn_at_once_one_is_told(make_page: MakePage):
    ada, ben = make_page(), make_page()
    # Hold back the live updates so both phones still show the table before either tap.
    for phone in (ada, ben):
        phone.route("**/events", lambda route: route.abort())
        phone.route(re.compile(r".*/api/v1/matches/[^/]+$"), lambda route: route.abort())
    start_match(ada, "Ada", "Ben")
    ben.goto(keep_score_link(ada))
    expect(ben.locator(".band__status")).to_have_text("Ada’s turn")
    ada.get_by_role("button", name="Take 24 from the grill").click()
    ben.get_by_role("button", name="Take 24 from the grill").click()
    told = "This turn was already recorded from another device: here is the table as it is now."
    both = [ada, ben]
    for phone in both:
        expect(phone.locator(".band__status")).to_have_text("Ben’s turn")
    alerts = [phone.get_by_text(told).count() for phone in both]
    assert sorted(alerts) == [0, 1]
    expect(ada.locator(".log__lines li")).to_have_count(1)
    expect(ben.locator(".log__lines li")).to_have_count(1)


def test_without_the_stream_the_table_still_follows_by_polling(make_page: MakePage):
    ada = make_page()
    table = start_match(ada, "Ada", "Ben")
    watcher = make_page()
    watcher.route("**/events", lambda route: route.abort())  # a network that drops the stream
    watcher.goto(table)
    record(ada, 29, "Take 29 from the grill", log="Ada took 29")
    expect(watcher.locator(".log__lines li").first).to_contain_text("Ada took 29", timeout=10_000)


def test_a_turn_entered_roll_by_roll_with_the_assistant_on_then_followed(make_page: MakePage):
    page = make_page()
    start_match(page, "Ada", "Ben")
    page.get_by_role("link", name="Dice, roll by roll").click()
    # The switch is on both pads: wait for the dice pad, or the click may land on the tile
    # pad's switch as the swap removes it (a tap lost, as on a phone mid-redraw).
    expect(page.get_by_text("This roll: 0 of 8 dice")).to_be_visible()
    page.get_by_role("button", name="Turn the assistant on (odds and advice)").click()
    advice = page.locator(".advice__headline")
    expect(advice).to_contain_text("Roll all 8 dice")

    tap_dice(page, "1", "3", "3", "5", "5", "5", "worm", "worm")
    expect(page.locator(".keep-buttons a")).to_have_count(4)  # every face shown is new
    expect(advice).to_have_text(re.compile(r"^Keep the .+, then (roll again|stop)\.$"))
    shoot(page, "table-08-assistant-advice")
    assert_accessible(page, "table-assistant")
    page.get_by_role("link", name=re.compile("· advised$")).click()  # follow the advice
    expect(page.locator(".dice-kept")).to_contain_text("dice left")

    left = int(re.search(r"(\d+) dice? left", page.locator(".dice-kept").inner_text()).group(1))  # type: ignore[union-attr]
    # The next roll shows one face only, new and of the other kind, so the turn ends with
    # all 8 dice kept, a worm among them and a total the grill can pay.
    worm_kept = page.locator(".dice-kept").get_by_role("img", name="Die showing a worm").count() > 0
    tap_dice(page, *(["5"] * left if worm_kept else ["worm"] * left))
    expect(advice).to_contain_text("then stop")
    page.get_by_role("link", name=re.compile("· advised$")).click()
    page.locator("#claim-form .claim").first.click()
    expect(page.locator(".log__lines li .log__text").first).to_have_text(
        re.compile(r"^Ada (took|scored \d+ and took) \d+")
    )
