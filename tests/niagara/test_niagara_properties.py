"""Niagara properties along random games (hypothesis): conservation, secrecy, copies, serialisation."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from niagara_helpers import GAME, check_invariants, gem_total, round_trip

from spieltafel.core import IllegalActionError, Rng
from spieltafel.games.niagara import NiagaraState
from spieltafel.games.niagara.components import DOWNSTREAM, FALLEN, GEMS_PER_COLOUR, SHORE, SPACE_NAMES, UPSTREAM
from spieltafel.games.niagara.rules import MOVE, OVER, SECRET

OPTIONS = st.fixed_dictionaries({
    "second-canoe": st.sampled_from(["moves", "launch-only"]),
    "ending": st.sampled_from(["immediate", "finish-round"]),
    "loading": st.sampled_from(["ends", "anywhere"]),
    "direction": st.sampled_from(["per-canoe", "per-turn"]),
})
PLAYERS = st.integers(min_value=3, max_value=5)
SEEDS = st.integers(min_value=0, max_value=2**32)


def _new(players: int, seed: int, options: dict[str, str]) -> NiagaraState:
    state = GAME.new_state(players, seed, options)
    assert isinstance(state, NiagaraState)
    return state


@settings(max_examples=40, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS)
def test_gems_and_discs_are_conserved_and_a_seat_to_act_can_always_act(
    players: int, seed: int, options: dict[str, str]
) -> None:
    state = _new(players, seed, options)
    rng = Rng(seed)
    while state.seats_to_act():
        for seat in state.seats_to_act():
            legal = state.legal_actions(seat)
            assert legal and legal == sorted(set(legal)) and legal[-1] < GAME.action_space_size(players)
            state.step(seat, rng.choice(legal))
            check_invariants(state)
    assert sum(gem_total(state)) == 5 * GEMS_PER_COLOUR
    assert state.winners() and set(state.winners()) <= set(range(players))


@settings(max_examples=15, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS, st.integers(min_value=50, max_value=300))
def test_views_hide_unrevealed_cards_and_survive_determinise(
    players: int, seed: int, options: dict[str, str], length: int
) -> None:
    state = _new(players, seed, options)
    rng = Rng(seed + 1)
    for _ in range(length):
        seats = state.seats_to_act()
        if not seats:
            break
        seat = seats[rng.below(len(seats))]
        for viewer in range(players):
            seen = state.view(viewer)
            assert state.determinise(viewer, rng).view(viewer) == seen
            for other, info in enumerate(seen["player_info"]):
                hidden = state.choice[other] >= 0 and not state.revealed[other] and other != viewer
                if hidden:
                    assert info["card"] is None and info["committed"] is True
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            if event.kind == "choose":
                assert "card" not in event.view(None)
                assert all("card" not in event.view(v) for v in range(players) if v != seat)


@settings(max_examples=15, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS, st.integers(min_value=50, max_value=300))
def test_json_round_trip_and_independent_clones_at_every_step(
    players: int, seed: int, options: dict[str, str], length: int
) -> None:
    state = _new(players, seed, options)
    rng = Rng(seed + 2)
    for _ in range(length):
        seats = state.seats_to_act()
        if not seats:
            break
        copy = round_trip(state)
        assert copy.to_json() == state.to_json()
        assert copy.view(None) == state.view(None)
        twin = state.clone()
        before = json.dumps(state.to_json())
        seat = seats[0]
        action = rng.choice(state.legal_actions(seat))
        twin.step(seat, action)
        assert json.dumps(state.to_json()) == before
        copy.step(seat, action)
        state.step(seat, action)
        assert copy.to_json() == state.to_json() == twin.to_json()


@settings(max_examples=25, deadline=None)
@given(PLAYERS, SEEDS, st.integers(min_value=0, max_value=400))
def test_the_order_of_secret_choices_never_matters(players: int, seed: int, actions: int) -> None:
    state = _new(players, seed, {})
    rng = Rng(seed + 3)
    for _ in range(actions):  # somewhere into the game, then on to the start of a round
        if not state.seats_to_act():
            return
        seat = state.seats_to_act()[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))
    while state.seats_to_act() and len(state.seats_to_act()) < players:
        seat = state.seats_to_act()[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))
    if not state.seats_to_act():
        return
    picks = {seat: rng.choice(state.legal_actions(seat)) for seat in range(players)}
    results = set()
    for shift in range(players):
        twin = state.clone()
        for seat in [(shift + k) % players for k in range(players)][:: 1 if shift % 2 else -1]:
            twin.apply(seat, picks[seat])
        results.add(json.dumps(twin.to_json(), sort_keys=True))
    assert len(results) == 1


@settings(max_examples=10, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS, st.integers(min_value=20, max_value=200))
def test_every_refusal_names_a_rule_and_changes_nothing(
    players: int, seed: int, options: dict[str, str], length: int
) -> None:
    state = _new(players, seed, options)
    rng = Rng(seed + 4)
    size = GAME.action_space_size(players)
    for _ in range(length):
        seats = state.seats_to_act()
        if not seats:
            break
        before = json.dumps(state.to_json())
        for seat in seats:
            legal = set(state.legal_actions(seat))
            for action in range(size):
                if action not in legal:
                    refusal = state.explain_illegal(seat, action)
                    assert refusal.rule and refusal.action == state.action_text(seat, action)
                    try:
                        state.apply(seat, action)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{state.action_text(seat, action)!r} was accepted")
        assert json.dumps(state.to_json()) == before
        seat = seats[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))


def _check_turn(steps: list[tuple[int, str, int, int]], value: int, on_water: set[int], options: dict[str, str],
                over: bool) -> None:
    """An independent check of one player's paddling turn, from what was applied: each canoe moves
    once, in one direction, gems only at the ends of its move, using exactly the card's value unless
    it landed (or, printed rule, was only launched beside a canoe on the water)."""
    order = [canoe for canoe, _, _, _ in steps]
    blocks = [c for i, c in enumerate(order) if i == 0 or order[i - 1] != c]
    assert len(blocks) == len(set(blocks)), f"a canoe moved twice: {order}"
    directions = set()
    for canoe in blocks:
        moves = [(kind, before, after) for c, kind, before, after in steps if c == canoe]
        spent = sum(2 if kind in ("load", "unload") else 1 for kind, _, _ in moves)
        heads = {"up" if after == UPSTREAM[before] else "down" for kind, before, after in moves if kind == "step"}
        for kind, before, after in moves:
            if kind == "step":
                assert after == UPSTREAM[before] or after in DOWNSTREAM[before]
        assert len(heads) <= 1, f"canoe {canoe} changed direction"
        directions |= heads
        pattern = "".join("s" if kind == "step" else "g" for kind, _, _ in moves)
        assert "s" in pattern, f"canoe {canoe} handled gems without moving: {pattern}"
        assert pattern.count("g") <= 1, f"canoe {canoe} handled gems twice in one move: {pattern}"
        if options["loading"] == "ends":
            assert "sgs" not in pattern.replace("ss", "s").replace("gg", "g"), pattern
        landed = moves[-1][0] == "step" and moves[-1][2] == SHORE
        launch_only = options["second-canoe"] == "launch-only" and moves[0][1] == SHORE and bool(on_water)
        if over and landed:
            continue
        assert spent == value or (landed and spent <= value) or (launch_only and spent == 1), (moves, value)
    if options["direction"] == "per-turn":
        assert len(directions) <= 1
    if not over:
        assert on_water <= set(blocks), f"canoes {on_water} on the water did not all move: {order}"


def _gem_first(state: NiagaraState, seat: int, rng: Rng) -> int:
    """A player who handles gems whenever the rules let them (the way to burn points, if any were
    left open), otherwise plays at random."""
    legal = state.legal_actions(seat)
    gems = [a for a in legal if "load" in state.action_text(seat, a)]
    return rng.choice(gems or legal)


@settings(max_examples=30, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS)
def test_every_paddling_turn_obeys_the_movement_rules(players: int, seed: int, options: dict[str, str]) -> None:
    _play_checking_turns(players, seed, options, lambda state, seat, rng: rng.choice(state.legal_actions(seat)))


@settings(max_examples=30, deadline=None)
@given(PLAYERS, SEEDS, OPTIONS)
def test_no_paddling_turn_ends_with_unused_points_except_by_landing(
    players: int, seed: int, options: dict[str, str]
) -> None:
    """„Paddelpunkte müssen immer komplett benutzt werden, ausser man überquert das Seil" and „Steht ein
    Kanu auf dem Fluss, muss es auch bewegt werden": played by a seat that handles a gem whenever it
    may, every canoe that moves takes at least one step, handles at most one gem, and spends exactly
    the card's value (steps + 2 per gem) unless it landed (or, printed rule, was only launched)."""
    _play_checking_turns(players, seed, options, _gem_first)


def _play_checking_turns(
    players: int, seed: int, options: dict[str, str], policy: Callable[[NiagaraState, int, Rng], int]
) -> None:
    state = _new(players, seed, options)
    rng = Rng(seed + 5)
    steps: list[tuple[int, str, int, int]] = []
    turn: tuple[int, int] | None = None
    on_water: set[int] = set()
    while state.seats_to_act():
        seat = state.seats_to_act()[0]
        if state.phase == MOVE and turn != (state.round, seat):
            turn = (state.round, seat)
            base = seat * 2
            on_water = {c for c in range(2) if SHORE < state.canoes[base + c] < FALLEN} if not steps else on_water
        action = policy(state, seat, rng)
        text = state.action_text(seat, action)
        value = state.choice[seat] + 1
        canoe = "ab".index(text[0]) if text[:2] in ("a ", "b ") else -1
        before = state.canoes[seat * 2 + canoe] if canoe >= 0 else -1
        events = state.apply(seat, action)
        if canoe >= 0:
            kind = "step" if text[2:4] in ("up", "do") else ("unload" if text.endswith("unload") else "load")
            after = before
            for event in events:
                if event.kind == "paddle" and event.view(None)["seat"] == seat:
                    after = SPACE_NAMES.index(event.view(None)["to"])
                    break
            steps.append((canoe, kind, before, after))
        if state.phase in (SECRET, OVER) or state.current != seat:
            if steps:
                _check_turn(steps, value, on_water, options, state.phase == OVER)
            steps, turn = [], None
