"""The browser suite (issue 11): real people's steps in Chromium against a real ``spieltafel serve``."""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .harness import (
    Server,
    create_table,
    current_seq,
    my_turn,
    new_person,
    play_one,
    shoot,
    sign_up,
    wait_for,
    wait_live,
    whose_turn,
)


def _api(server: Server, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _token(server: Server, name: str, password: str) -> str:
    """A personal API token for an account made in the browser (as a program of that person would)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    body = json.dumps({"name": name, "password": password}).encode()
    login = urllib.request.Request(server.url + "/api/session", data=body, method="POST")
    login.add_header("Content-Type", "application/json")
    opener.open(login, timeout=30).read()
    made = urllib.request.Request(server.url + "/api/tokens", data=b"{}", method="POST")
    made.add_header("Content-Type", "application/json")
    token: str = json.loads(opener.open(made, timeout=30).read())["token"]
    return token


def _play_through_api(server: Server, table: int, token: str, rng: random.Random, stop: Any) -> dict[str, Any]:
    """The person's own moves, sent through the API (random legal ones) until ``stop(state)``."""
    while True:
        state: dict[str, Any] = _api(server, "GET", f"/api/tables/{table}/state", token=token)
        if state["result"] or stop(state):
            return state
        if state["seat"] in state["to_act"] and state["legal"]:
            action = rng.choice(state["legal"])["action"]
            try:
                _api(server, "POST", f"/api/tables/{table}/moves", {"seq": state["seq"], "action": action}, token)
            except urllib.error.HTTPError as error:
                if error.code != 409:
                    raise
        else:
            time.sleep(0.02)


def test_two_people_play_iquazu_live(server: Server, browser: Any, shots: Path) -> None:
    rng = random.Random(11)
    anna = new_person(browser)
    ben = new_person(browser)
    sign_up(anna, server.url, "anna")
    sign_up(ben, server.url, "ben")
    table = create_table(anna, server.url, "iquazu", 2, ["me", "open"])
    assert anna.locator("#open-table").count()

    # Ben finds the table in the lobby and takes the free seat.
    ben.goto(server.url + "/")
    ben.click(f"a.table-link[href='/tables/{table}']")
    ben.click("form[action$='/join'] button")
    ben.wait_for_url(f"{server.url}/tables/{table}")
    wait_live(ben)
    # Anna's waiting page notices the start by itself.
    anna.wait_for_selector("#board", timeout=20_000)
    wait_live(anna)
    ben.evaluate("() => { window.notReloaded = true; }")
    anna.evaluate("() => { window.notReloaded = true; }")

    for move in range(8):
        mover = whose_turn(anna, ben)  # both pages at the same seq, "your turn" on exactly one
        other = ben if mover is anna else anna
        before = current_seq(other)
        play_one(mover, rng, keyboard=move % 2 == 1)
        # The other sees the move without reloading: a new seq, the move in words.
        other.wait_for_function("(seq) => window.spieltafelTable.seq !== seq", arg=before)
        assert other.evaluate("() => window.notReloaded") is True
        assert other.locator("#event-list li.latest").inner_text().strip()
        if move == 3:
            shoot(anna, shots, "iquazu")
    assert not anna.csp_errors and not ben.csp_errors, anna.csp_errors + ben.csp_errors
    anna.goto(server.url + "/")
    # listed once (issue 26): among the games waiting for her when it is her turn, else among her games
    listed = f"#my-games a.table-link[href='/tables/{table}'], #waiting a[href='/tables/{table}']"
    assert anna.locator(listed).count() == 1
    shoot(anna, shots, "lobby")
    anna.context.close()
    ben.context.close()


def test_niagara_against_two_bots_with_secret_cards(server: Server, browser: Any, shots: Path) -> None:
    rng = random.Random(5)
    clara = new_person(browser)
    sign_up(clara, server.url, "clara")
    create_table(clara, server.url, "niagara", 3, ["me", "bot:random", "bot:random"])
    wait_live(clara)
    # Round one starts with the secret paddle cards: the bots commit, and everyone sees only "has chosen".
    clara.wait_for_selector("#seat-list .seat.has-chosen")
    assert clara.locator("#seat-list .seat.has-chosen .seat-state").first.inner_text().strip()
    shoot(clara, shots, "niagara")
    assert my_turn(clara)
    secret_seq = current_seq(clara)
    play_one(clara, rng)
    moves = 1
    while moves < 10:
        wait_for(lambda: my_turn(clara) or clara.locator("#h-result").count(), timeout=30)
        if clara.locator("#h-result").count():
            break
        play_one(clara, rng, keyboard=moves % 2 == 1)
        moves += 1
    assert current_seq(clara) is None or current_seq(clara) > secret_seq
    assert "secret" not in " ".join(clara.csp_errors)
    assert not clara.csp_errors, clara.csp_errors
    clara.context.close()


def _near_the_end(state: dict[str, Any]) -> bool:
    view = state.get("view") or {}
    decks = view.get("deck_sizes") or [1]
    return bool(view.get("round") == 2 and decks[-1] == 0)


def test_haleakala_finish_against_a_bot_then_replay(server: Server, browser: Any, shots: Path) -> None:
    rng = random.Random(3)
    dora = new_person(browser)
    sign_up(dora, server.url, "dora")
    token = _token(server, "dora", "correct-horse-7")
    for extra in (40, 20, 5, 0):
        table = _api(
            server,
            "POST",
            "/api/tables",
            {
                "game": "haleakala",
                "players": 2,
                "options": {},
                "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}],
            },
            token,
        )["id"]
        state = _play_through_api(server, table, token, rng, _near_the_end)
        counter = {"left": extra}

        def more(state: dict[str, Any], counter: dict[str, int] = counter) -> bool:
            if state["seat"] in state["to_act"]:
                counter["left"] -= 1
            return counter["left"] < 0

        state = _play_through_api(server, table, token, rng, more)
        if not state["result"]:
            break
    else:
        raise AssertionError("every game ended before the browser took over")
    dora.goto(f"{server.url}/tables/{table}")
    wait_live(dora)
    shoot(dora, shots, "haleakala")
    moves = 0
    while not dora.locator("#h-result").count():
        wait_for(lambda: my_turn(dora) or dora.locator("#h-result").count(), timeout=30)
        if dora.locator("#h-result").count():
            break
        play_one(dora, rng, keyboard=moves % 3 == 2)
        moves += 1
        assert moves < 400
    dora.wait_for_selector("#h-result")
    assert dora.locator(".result-table tbody tr:not(.breakdown-row)").count() == 2
    assert dora.locator(".result-table .winner").count() >= 1
    shoot(dora, shots, "finished")

    # The replay (RULES+REPLAY's pages) steps to the end.
    dora.click(f"a[href='/tables/{table}/replay']")
    dora.wait_for_url(f"{server.url}/tables/{table}/replay*")
    steps = int(dora.locator("#replay-step").get_attribute("max") or "0")
    assert steps > 0
    dora.click("a.replay-forward")
    # The stepper's links may load a new page: between the two there is no slider to read.
    dora.wait_for_function("() => document.querySelector('#replay-step')?.value === '1'")
    dora.click("a.replay-last")
    dora.wait_for_function("(n) => document.querySelector('#replay-step')?.value === String(n)", arg=steps)
    assert not dora.locator("a.replay-forward").count()
    assert not dora.csp_errors, dora.csp_errors
    dora.context.close()


def test_language_switch_changes_the_page(server: Server, browser: Any, shots: Path) -> None:
    eve = new_person(browser, lang="nl")
    eve.goto(server.url + "/")
    assert eve.locator("html").get_attribute("lang") == "nl"
    dutch = eve.locator("#h-open").inner_text()
    eve.click(".language-switch button[value='de']")
    eve.wait_for_function("() => document.documentElement?.lang === 'de'")
    german = eve.locator("#h-open").inner_text()
    eve.click(".language-switch button[value='en']")
    eve.wait_for_function("() => document.documentElement?.lang === 'en'")
    assert eve.locator("#h-open").inner_text() == "Open tables"
    assert len({dutch, german, "Open tables"}) == 3
    # Remembered for an account: sign up in German, sign out, sign in from an English browser.
    eve.click(".language-switch button[value='de']")
    eve.wait_for_function("() => document.documentElement?.lang === 'de'")
    sign_up(eve, server.url, "eve")
    eve.goto(server.url + "/tables/new?game=niagara&players=3")
    assert eve.locator("html").get_attribute("lang") == "de"
    assert eve.locator("h1").first.inner_text() == "Neuer Tisch"
    shoot(eve, shots, "new-table-de")
    eve.click("form[action='/signout'] button")
    eve.context.clear_cookies()
    other = new_person(browser, lang="en")
    other.goto(server.url + "/signin")
    other.fill("#name", "eve")
    other.fill("#password", "correct-horse-7")
    other.click("form[action='/signin'] button[type=submit]")
    other.wait_for_url(server.url + "/")
    assert other.locator("html").get_attribute("lang") == "de"
    other.context.close()
    eve.context.close()


def test_a_live_clock_ticks_and_a_bot_takes_over_a_leavers_seat(server: Server, browser: Any, shots: Path) -> None:
    """Issue 14: the clock of the seat to act counts down on the page; the one who leaves is replaced by the
    table's bot, marked as such on the other player's page, which then sees the bot move."""
    tilda, ulrik = new_person(browser), new_person(browser)
    sign_up(tilda, server.url, "tilda")
    sign_up(ulrik, server.url, "ulrik")
    tilda.goto(f"{server.url}/tables/new?game=haleakala&players=2")
    tilda.select_option("#seat-1", "open")
    tilda.check("input[name='pace'][value='live']")
    tilda.select_option("#minutes", "3")
    tilda.check("input[name='leaver'][value='bot']")
    tilda.select_option("#leaver_bot", "random")
    tilda.click("form.new-table button[type=submit]")
    tilda.wait_for_url(re.compile(r".*/tables/\d+$"))
    table = int(tilda.url.rsplit("/", 1)[1])
    ulrik.goto(f"{server.url}/tables/{table}")
    ulrik.click("form[action$='/join'] button")
    ulrik.wait_for_url(f"{server.url}/tables/{table}")
    wait_live(ulrik)
    tilda.wait_for_selector("#board", timeout=20_000)
    wait_live(tilda)
    assert my_turn(tilda)
    running = "#seat-list [data-clock='0'].running"
    first = tilda.locator(running).inner_text()
    assert re.fullmatch(r"[23]:\d\d", first), first
    tilda.wait_for_function(
        "([sel, first]) => document.querySelector(sel).textContent !== first", arg=[running, first], timeout=5_000
    )
    assert ulrik.locator("#seat-list [data-clock='0']").inner_text()   # the other sees it too
    shoot(tilda, shots, "live-clock")

    tilda.click(".leave-box summary")
    tilda.check("#leave-confirm")  # "Leave for good" asks first (issue 26)
    tilda.click(".leave-box button[type=submit]")
    tilda.wait_for_url(f"{server.url}/")
    ulrik.wait_for_selector("#seat-list .seat-0 .seat-gone", timeout=20_000)
    assert "tilda" in ulrik.locator("#seat-list .seat-0 .seat-label").inner_text()
    assert "Bot" in ulrik.locator("#seat-list .seat-0 .seat-label").inner_text()
    wait_live(ulrik)
    wait_for(lambda: my_turn(ulrik), timeout=30)                      # the bot moved for tilda
    assert not tilda.csp_errors and not ulrik.csp_errors, tilda.csp_errors + ulrik.csp_errors
    tilda.context.close()
    ulrik.context.close()


def test_signing_out_in_another_tab_ends_the_table_pages_socket(server: Server, browser: Any) -> None:
    """Issue 23: the socket closes with 4401; the page says "signed out" and does not reconnect."""
    olaf = new_person(browser)
    sockets: list[Any] = []
    olaf.on("websocket", lambda socket: sockets.append(socket))
    sign_up(olaf, server.url, "olaf")
    table = create_table(olaf, server.url, "iquazu", 2, ["me", "bot:random"])
    wait_live(olaf)
    other_tab = olaf.context.new_page()
    other_tab.goto(server.url + "/")
    other_tab.click("form[action='/signout'] button")
    other_tab.wait_for_url(server.url + "/")
    olaf.wait_for_function("() => document.getElementById('connection')?.textContent.includes('signed out')")
    assert olaf.locator("#move-error").is_visible() and "Reload the page" in olaf.locator("#move-error").inner_text()
    time.sleep(3)  # a reconnect would have come within 1 s
    assert "signed out" in olaf.locator("#connection").inner_text()
    assert [s.url.rsplit("/ws/tables/", 1)[1].split("?")[0] for s in sockets] == [str(table)]
    olaf.context.close()
