"""The browser suite, play feel (issue 25): one click per move, the chooser where a target stands for
several moves, Undo (button and keys) that the other seat sees, the focus that stays on the board with
arrow keys between targets, "ask before each move" remembered, and the lost-connection banner."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .harness import Server, new_person, shoot, sign_up, wait_live
from .test_browser import _api, _token
from .test_gesture import keyboard_game

PASSWORD = "correct-horse-7"


def _two_at_haleakala(server: Server, first: str, second: str, browser: Any) -> tuple[Any, Any, str, str, int]:
    pages, tokens = [], []
    for name in (first, second):
        page = new_person(browser)
        sign_up(page, server.url, name, PASSWORD)
        pages.append(page)
        tokens.append(_token(server, name, PASSWORD))
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "open"}]}
    table: int = _api(server, "POST", "/api/tables", body, tokens[0])["id"]
    _api(server, "POST", f"/api/tables/{table}/join", {}, tokens[1])
    for page in pages:
        page.goto(f"{server.url}/tables/{table}")
        wait_live(page)
    return pages[0], pages[1], tokens[0], tokens[1], table


def _seq(page: Any) -> int:
    return int(page.evaluate("() => window.spieltafelTable.seq"))


def _wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function("(n) => window.spieltafelTable && window.spieltafelTable.seq >= n", arg=seq)


def _open_move(server: Server, token: str, table: int) -> dict[str, Any]:
    """A disc on a beach without the boat: the turn goes on (the shaman's step), so it can be taken back."""
    state = _api(server, "GET", f"/api/tables/{table}/state", None, token)
    boat = state["view"]["boat"]
    return next(
        item
        for item in state["legal"]
        if item["notation"].startswith("place") and not item["notation"].endswith(f"b{boat}")
    )


def _play(page: Any, action: int) -> None:
    """Click the board target of ``action``: one click, or the chooser's entry where it stands for several."""
    single = page.locator(f'#board [data-action="{action}"]')
    if single.count():
        single.first.click()
        return
    group = page.locator("#board [data-actions]").evaluate_all(
        "(nodes, a) => nodes.findIndex((n) => n.dataset.actions.split(' ').map(Number).includes(a))", action
    )
    assert group >= 0, f"no target stands for action {action}"
    page.locator("#board [data-actions]").nth(group).click()
    page.wait_for_selector("#chooser:not([hidden])")
    page.click(f'#chooser-list button[data-choice="{action}"]')


def test_one_click_moves_undo_seen_by_the_other_seat_and_keys(server: Server, browser: Any, shots: Path) -> None:
    anna, ben, anna_token, _, table = _two_at_haleakala(server, "fanna", "fben", browser)
    anna.wait_for_selector("#turn-banner.mine")
    assert anna.locator("#undo-button").is_hidden()  # nothing to take back at the start
    assert "U or Ctrl+Z" in anna.locator("#shortcuts").inner_text()
    before = ben.locator("#board").inner_html()
    move = _open_move(server, anna_token, table)
    _play(anna, move["action"])
    _wait_seq(anna, 1)
    assert anna.locator("#confirm-bar").is_hidden()  # no Confirm: the move went with the click (or chooser)
    anna.wait_for_selector("#undo-button:not([hidden])")
    _wait_seq(ben, 1)
    assert anna.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    shoot(anna, shots, "undo-available")

    anna.click("#undo-button")
    _wait_seq(anna, 2)
    _wait_seq(ben, 2)
    anna.wait_for_selector("#undo-button[hidden]", state="attached")
    ben.wait_for_function("() => document.getElementById('event-list').innerText.includes('takes back')")
    assert ben.locator("#board").inner_html() == before  # the other seat sees the board go back

    # the same with the keyboard: the focus is on the board, the arrows move it, u takes back
    _play(anna, move["action"])
    _wait_seq(anna, 3)
    anna.wait_for_selector("#undo-button:not([hidden])")
    focused = anna.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
    anna.keyboard.press("ArrowRight")
    assert anna.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    assert anna.evaluate("() => document.activeElement.outerHTML.slice(0, 80)") != focused
    anna.keyboard.press("u")
    _wait_seq(anna, 4)
    _wait_seq(ben, 4)
    assert ben.locator("#board").inner_html() == before
    # nothing left to take back: the key does nothing (no request, no error)
    anna.keyboard.press("Control+z")
    anna.wait_for_timeout(300)
    assert _seq(anna) == 4 and anna.locator("#move-error").is_hidden()
    for page in (anna, ben):
        assert not page.csp_errors, page.csp_errors
        page.context.close()


def test_ask_before_each_move_is_remembered_and_escape_cancels(server: Server, browser: Any) -> None:
    cleo, dirk, cleo_token, _, table = _two_at_haleakala(server, "fcleo", "fdirk", browser)
    cleo.wait_for_selector("#turn-banner.mine")
    cleo.check("#confirm-toggle")
    cleo.wait_for_function("() => document.body.dataset.confirmSaved === 'yes'")  # on the account
    cleo.reload()
    wait_live(cleo)
    assert cleo.locator("#confirm-toggle").is_checked()  # remembered (the account's, test_gesture.py)
    move = _open_move(server, cleo_token, table)
    _play(cleo, move["action"])
    cleo.wait_for_selector("#confirm-bar:not([hidden])")
    assert cleo.locator("#confirm-text").inner_text().endswith("Send this move?")
    cleo.keyboard.press("Escape")
    assert cleo.locator("#confirm-bar").is_hidden() and _seq(cleo) == 0
    _play(cleo, move["action"])
    cleo.click("#confirm-yes")
    _wait_seq(cleo, 1)
    for page in (cleo, dirk):
        page.context.close()


def test_a_lost_connection_shows_a_banner_over_the_board_and_takes_no_moves(
    server: Server, browser: Any, shots: Path
) -> None:
    emil, fred, emil_token, _, table = _two_at_haleakala(server, "femil", "ffred", browser)
    emil.wait_for_selector("#turn-banner.mine")
    assert emil.locator("#offline-banner").is_hidden()
    emil.context.set_offline(True)
    emil.evaluate("() => window.spieltafelTable.socket.close()")
    emil.wait_for_selector("#offline-banner:not([hidden])")
    assert "Your turn" not in emil.locator("#turn-banner").inner_text()  # the banner no longer says so
    banner = emil.locator("#offline-banner").bounding_box()
    board = emil.locator("#board").bounding_box()
    assert banner and board and banner["y"] <= board["y"] + 5  # over the board, where the player looks
    move = _open_move(server, emil_token, table)
    emil.evaluate("(a) => window.spieltafelTable.send(a)", move["action"])  # a move while down: refused aloud,
    emil.wait_for_selector("#offline-banner.again")  # by the banner once more (read again: role=alert)
    assert emil.locator("#move-error").is_hidden()  # not by a fourth "Reconnecting…" beside it
    shoot(emil, shots, "connection-lost")
    time.sleep(1.5)  # a reconnect attempt or two fail while offline
    assert emil.locator("#offline-banner").is_visible() and _seq(emil) == 0
    emil.context.set_offline(False)
    emil.wait_for_selector("#offline-banner", state="hidden", timeout=30_000)
    wait_live(emil)
    emil.wait_for_selector("#turn-banner.mine")  # the state message gives the turn back
    assert _api(server, "GET", f"/api/tables/{table}/state", None, emil_token)["seq"] == 0  # nothing was sent
    for page in (emil, fred):
        page.context.close()


def test_a_whole_game_with_the_keyboard_alone(server: Server, browser: Any) -> None:
    """Haleakala against a bot with nothing but arrows, Enter and Tab (in the chooser): the focus is on the
    board when the turn comes, stays there after each move, and a move costs at most a few keys (Iquazú and
    Niagara: test_gesture.py)."""
    body = {"game": "haleakala", "players": 2, "seats": [{"kind": "me"}, {"kind": "bot", "bot": "random"}]}
    keys, moves = keyboard_game(server, browser, "fgina", body, 3)
    print(f"haleakala: {keys} keys for {moves} moves, {keys / moves:.2f} a move")
    assert moves > 10 and keys / moves <= 4, (keys, moves)
