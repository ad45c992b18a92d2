"""The browser suite, issue 25's rest: Niagara's canoe move in one gesture (a destination space on the river
plays the canoe's steps, the other seat sees each step), the chooser for a destination with alternatives, a
gesture's steps taken back, hostile lists refused with nothing changed; keyboard-only whole games of Iquazú
and Niagara; "Ask before each move" kept on the account across browsers."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .harness import Server, current_seq, new_person, shoot, sign_up, wait_live
from .test_browser import _api, _token

PASSWORD = "correct-horse-7"


def _seq(page: Any) -> int:
    return int(page.evaluate("() => window.spieltafelTable.seq"))


def _wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function("(n) => window.spieltafelTable && window.spieltafelTable.seq >= n", arg=seq)


def _people(server: Server, browser: Any, names: list[str]) -> tuple[list[Any], list[str]]:
    pages, tokens = [], []
    for name in names:
        page = new_person(browser)
        sign_up(page, server.url, name, PASSWORD)
        pages.append(page)
        tokens.append(_token(server, name, PASSWORD))
    return pages, tokens


def _niagara(server: Server, tokens: list[str]) -> int:
    body = {"game": "niagara", "players": 3, "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
    table: int = _api(server, "POST", "/api/tables", body, tokens[0])["id"]
    for token in tokens[1:]:
        _api(server, "POST", f"/api/tables/{table}/join", {}, token)
    return table


def _state(server: Server, table: int, token: str) -> dict[str, Any]:
    state: dict[str, Any] = _api(server, "GET", f"/api/tables/{table}/state", None, token)
    return state


def _post(server: Server, table: int, token: str, body: Any) -> tuple[int, Any]:
    """A raw POST of a move body: (status, JSON answer), refusals included."""
    request = urllib.request.Request(f"{server.url}/api/tables/{table}/moves", data=json.dumps(body).encode(),
                                     method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_canoe_paddles_to_its_destination_in_one_click_and_the_other_seat_sees_each_step(
    server: Server, browser: Any, shots: Path
) -> None:
    pages, tokens = _people(server, browser, ["gana", "gben", "gcid"])
    table = _niagara(server, tokens)
    for seq, token in enumerate(tokens):
        _api(server, "POST", f"/api/tables/{table}/moves", {"seq": seq, "action": "play 6"}, token)
    first = _state(server, table, tokens[0])["to_act"][0]
    mover, other = pages[first], pages[(first + 1) % 3]
    mover_token, other_token = tokens[first], tokens[(first + 1) % 3]
    pages[(first + 2) % 3].context.close()
    for page in (mover, other):
        page.goto(f"{server.url}/tables/{table}")
        wait_live(page)
    mover.wait_for_selector("#turn-banner.mine")
    destination = mover.locator('#board [data-target="dest-a-6L"]')
    assert destination.count() == 1 and destination.get_attribute("aria-label") == "Canoe a to space 6 of the left arm"
    assert mover.locator("#board [data-gestures]").count() == 6  # a and b: 4, 6L, 6R each
    shoot(mover, shots, "niagara-destinations")

    # hostile lists first: refused, nothing changes, the other seat's board stays as it was
    board_before = other.locator("#board").inner_html()
    for body in (
        {"seq": 3, "actions": ["a down", "a down", "b down", "a down"]},  # an illegal step in the middle
        {"seq": 3, "actions": ["a down"] * 17},  # too long
        {"seq": 3, "actions": {"a": 1}},  # garbage
        {"seq": 3, "actions": ["a down"] * 5 + ["a down left", "a down"]},  # a step after the turn passed
    ):
        status, answer = _post(server, table, mover_token, body)
        assert status == 422, (body, answer)
    mover.evaluate(
        "() => window.spieltafelTable.socket.send(JSON.stringify({type: 'move', seq: 3, actions: ['a down', 'a up']}))"
    )
    mover.wait_for_function("() => document.body.dataset.refused === 'illegal-steps'")
    assert mover.locator("#move-error").is_visible()
    assert _state(server, table, other_token)["seq"] == 3 and _seq(other) == 3
    assert other.locator("#board").inner_html() == board_before

    destination.click()  # one click: six steps
    _wait_seq(mover, 9)
    _wait_seq(other, 9)
    assert mover.locator("#confirm-bar").is_hidden() and mover.locator("#chooser").is_hidden()
    lines = other.locator("#event-list li").all_inner_texts()
    paddles = [line for line in lines if "paddles to" in line]
    assert len(paddles) == 6, lines  # the steps one by one in the log
    assert paddles[0].endswith("space 1") and paddles[-1].endswith("space 6 of the left arm")
    record = [row for row in _api(server, "GET", f"/api/tables/{table}/state", None, other_token)["events"]
              if row["kind"] == "paddle"]
    assert [row["seq"] for row in record] == [4, 5, 6, 7, 8, 9]
    assert not mover.csp_errors and not other.csp_errors
    for page in (mover, other):
        page.context.close()


def _to_a_choice(server: Server, table: int, tokens: list[str], seat: int, rng: random.Random) -> dict[str, Any]:
    """Play random moves for every seat until ``seat`` may move a canoe to a destination with alternatives
    while both its canoes have still to move."""
    for _ in range(3000):
        states = [_state(server, table, token) for token in tokens]
        mine = states[seat]
        targets = [g["target"] for g in mine["gestures"]]
        both = any(t.startswith("dest-a-") for t in targets) and any(t.startswith("dest-b-") for t in targets)
        if any(targets.count(t) > 1 for t in targets) and both and mine["undo"] == 0:
            return mine  # after one canoe's move the other still moves: the turn goes on
        acting = next(n for n, s in enumerate(states) if s["legal"])
        state = states[acting]
        action = rng.choice(state["legal"])["action"]
        _api(server, "POST", f"/api/tables/{table}/moves", {"seq": state["seq"], "action": action}, tokens[acting])
    raise AssertionError("no destination with alternatives came up")


def test_a_destination_with_alternatives_opens_the_chooser_and_u_takes_back_the_steps(
    server: Server, browser: Any, shots: Path
) -> None:
    pages, tokens = _people(server, browser, ["gdora", "gemil", "gfynn"])
    table = _niagara(server, tokens)
    for page in pages[1:]:
        page.context.close()
    state = _to_a_choice(server, table, tokens, 0, random.Random(11))
    dora = pages[0]
    dora.goto(f"{server.url}/tables/{table}")
    wait_live(dora)
    targets = [g["target"] for g in state["gestures"]]
    target = next(t for t in targets if targets.count(t) > 1)
    alternatives = [g for g in state["gestures"] if g["target"] == target]
    dora.click(f'#board [data-target="{target}"]')
    dora.wait_for_selector("#chooser:not([hidden])")
    entries = dora.locator("#chooser-list button[data-gesture]")
    assert entries.count() == len(alternatives) >= 2
    assert len(set(entries.all_inner_texts())) == len(alternatives)  # each alternative says what differs
    shoot(dora, shots, "niagara-destination-chooser")
    chosen = alternatives[1]
    entries.nth(1).click()
    seq = state["seq"] + len(chosen["actions"])
    _wait_seq(dora, seq)
    after = _state(server, table, tokens[0])
    assert [e["kind"] for e in after["events"]][-len(chosen["actions"]):].count("undo") == 0
    steps = len(chosen["actions"])
    if after["undo"] >= steps:  # the turn is still Dora's: one U takes back the whole gesture (docs/play.md)
        board = dora.locator("#board").inner_html()
        dora.wait_for_selector("#undo-button:not([hidden])")
        dora.keyboard.press("u")
        _wait_seq(dora, seq + steps)  # a takeback row per step
        back = _state(server, table, tokens[0])
        assert back["undo"] == after["undo"] - steps and back["seq"] == seq + steps
        assert back["view"] == state["view"] and dora.locator("#board").inner_html() != board
        undone = True
    else:
        undone = False
    assert undone, "the seeded game should leave the gesture open to a takeback"
    assert not dora.csp_errors
    dora.context.close()


FOCUS_ON_BOARD = (
    "() => document.querySelector('.result-table') || document.getElementById('board').contains(document.activeElement)"
)
WHERE_THE_FOCUS_IS = (
    "() => ({ active: document.activeElement ? document.activeElement.outerHTML.slice(0, 160) : null,"
    " banner: (document.getElementById('turn-banner') || {}).className,"
    " targets: window.spieltafelTable ? window.spieltafelTable.targets().length : null,"
    " seq: window.spieltafelTable ? window.spieltafelTable.seq : null, url: location.pathname })"
)


def _wait_for_focus_on_board(page: Any) -> None:
    """Until the focus is on a board target or the game is over; on a timeout, say where the focus is instead."""
    try:
        page.wait_for_function(FOCUS_ON_BOARD)
    except PlaywrightTimeoutError as error:
        raise AssertionError(f"the focus is not on the board: {page.evaluate(WHERE_THE_FOCUS_IS)}") from error


def keyboard_game(server: Server, browser: Any, name: str, body: dict[str, Any], seed: int) -> tuple[int, int]:
    """A whole game at table ``body`` played by one person with arrows, Enter and Tab alone; (keys, moves)."""
    page = new_person(browser)
    sign_up(page, server.url, name, PASSWORD)
    token = _token(server, name, PASSWORD)
    table: int = _api(server, "POST", "/api/tables", body, token)["id"]
    page.goto(f"{server.url}/tables/{table}")
    wait_live(page)
    rng = random.Random(seed)
    keys = moves = stale = 0
    for _ in range(1500):
        try:
            page.wait_for_function(
                "() => document.querySelector('#turn-banner.mine') || document.querySelector('.result-table')"
            )
            if page.locator(".result-table").count():
                break
            # after every move (and when the turn comes) the focus is on a board target, never on <body>; the
            # game's last move may still reload the page meanwhile (after a chooser's entry, whose focus left
            # the board), and the game-over page has a board without targets
            _wait_for_focus_on_board(page)
            if page.locator(".result-table").count():
                break
            seq = current_seq(page)
            page.wait_for_timeout(200)  # a person's pace: the socket takes at most 100 messages in 20 s
            # the game's last move reloads the page: the game-over page has no table script (and no targets)
            gestures, at = page.evaluate(
                "() => { const t = window.spieltafelTable; if (!t) return [null, -1]; const targets = t.targets();"
                " return [targets.map((x) => x.hasAttribute('data-gestures')),"
                " targets.indexOf(document.activeElement)]; }"
            )
        except PlaywrightError as error:  # the game's last move: the page loads the game-over page meanwhile
            if "context was destroyed" not in str(error):
                raise
            page.wait_for_load_state()
            continue
        # the game ended, or the turn moved on meanwhile (a bot's secret choice drew the board anew, or a forced
        # move played itself): look again
        if seq is None or not gestures or not page.locator("#turn-banner.mine").count():
            continue
        wanted = [k for k, g in enumerate(gestures) if g]
        if wanted:  # Niagara's canoe moves: the next destination ahead (at most 3 arrows)
            goal = min(wanted, key=lambda k: ((k - at) % len(gestures), rng.random()))
            arrows = min((goal - at) % len(gestures), 3) if at >= 0 else 0
        else:  # a random target a few arrows ahead
            arrows = rng.randrange(3)
        for _ in range(arrows):
            page.keyboard.press("ArrowRight")
            keys += 1
        page.keyboard.press("Enter")
        keys += 1
        if page.locator("#chooser:not([hidden])").count():
            for _ in range(rng.randrange(2)):
                page.keyboard.press("Tab")
                keys += 1
            page.keyboard.press("Enter")
            keys += 1
        moves += 1
        page.wait_for_function(
            "(n) => !window.spieltafelTable || window.spieltafelTable.seq !== n"
            " || document.querySelector('.result-table')",
            arg=seq,
        )
        if page.locator("#move-error:not([hidden])").count():
            # Niagara's paddle cards are chosen at once: a bot's choice may come first (seq moved on), and the
            # page says so; the person looks again and plays on the new state. Nothing else may be refused.
            assert page.evaluate("() => document.body.dataset.refused") == "stale"
            stale += 1
    else:
        raise AssertionError("the game did not end")
    assert stale <= moves // 10, (stale, moves)
    assert not page.csp_errors, page.csp_errors
    page.context.close()
    return keys, moves


@pytest.mark.parametrize(
    ("game", "body"),
    [
        ("iquazu", {"game": "iquazu", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}),
        ("niagara", {"game": "niagara", "players": 3, "seats": [
            {"kind": "me"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
    ],
)
def test_a_whole_game_with_the_keyboard_alone(server: Server, browser: Any, game: str, body: dict[str, Any]) -> None:
    """Arrows, Enter and Tab (in the chooser) only: the focus is on the board when the turn comes and after
    every move, and a move costs at most 4 keys on average (Niagara's canoe moves as destinations)."""
    keys, moves = keyboard_game(server, browser, f"k{game}", body, 5)
    print(f"{game}: {keys} keys for {moves} moves, {keys / moves:.2f} a move")  # the figure for docs/play.md
    assert moves > 10 and keys / moves <= 4, (keys, moves)


def test_ask_before_each_move_is_kept_on_the_account_across_browsers(server: Server, browser: Any) -> None:
    pages, tokens = _people(server, browser, ["ghana", "givo"])
    hana = pages[0]
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table: int = _api(server, "POST", "/api/tables", body, tokens[0])["id"]
    _api(server, "POST", f"/api/tables/{table}/join", {}, tokens[1])
    hana.goto(f"{server.url}/tables/{table}")
    wait_live(hana)
    assert not hana.locator("#confirm-toggle").is_checked()  # off by default (docs/play.md)
    hana.check("#confirm-toggle")
    hana.wait_for_function("() => document.body.dataset.confirmSaved === 'yes'")
    # another browser (a new context: no localStorage, no cookies), signed in as the same account
    elsewhere = new_person(browser)
    elsewhere.goto(f"{server.url}/signin")
    elsewhere.fill("#name", "ghana")
    elsewhere.fill("#password", PASSWORD)
    elsewhere.click("form[action='/signin'] button[type=submit]")
    elsewhere.wait_for_url(f"{server.url}/")
    assert elsewhere.evaluate("() => window.localStorage.getItem('spieltafel.confirm-moves')") is None
    elsewhere.goto(f"{server.url}/tables/{table}")
    wait_live(elsewhere)
    assert elsewhere.locator("#confirm-toggle").is_checked()  # the account's choice
    elsewhere.goto(f"{server.url}/account")
    assert elsewhere.locator("#account-confirm-moves").is_checked()
    elsewhere.uncheck("#account-confirm-moves")
    elsewhere.click("#play-box button[type=submit]")
    elsewhere.wait_for_url(f"{server.url}/account?confirm=1")
    assert not elsewhere.locator("#account-confirm-moves").is_checked()
    hana.reload()
    wait_live(hana)
    assert not hana.locator("#confirm-toggle").is_checked()  # the account page's choice reaches the table
    # a hostile value changes nothing
    status = elsewhere.evaluate(
        """async () => (await fetch('/account/confirm-moves', {method: 'POST', credentials: 'same-origin',
            headers: {Accept: 'application/json', 'X-CSRF-Token': document.querySelector('[name=csrf_token]').value},
            body: new URLSearchParams({confirm_moves: 'maybe'})})).status"""
    )
    assert status == 422
    hana.reload()
    wait_live(hana)
    assert not hana.locator("#confirm-toggle").is_checked()
    for page in (hana, pages[1], elsewhere):
        assert not page.csp_errors, page.csp_errors
        page.context.close()
