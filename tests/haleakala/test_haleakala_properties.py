"""Properties over random games (hypothesis): components are conserved, the rules' invariants hold,
and the engine contract's promises (notation, views, copies, JSON) hold at every step."""

from __future__ import annotations

import json

from haleakala_scenario import conserved, new, random_positions
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltafel.core import Rng
from spieltafel.games.haleakala.components import LAVA_DISC
from spieltafel.games.haleakala.notation import ACTION_SPACE
from spieltafel.games.haleakala.rules import BOX, OVER, SUPPLY, TURN, beach_sums
from spieltafel.games.haleakala.state import HaleakalaState

VARIANTS = st.sampled_from(["basic", "tactical"])
SEEDS = st.integers(min_value=0, max_value=2**32)


def playout(variant: str, seed: int, choices: int) -> list[HaleakalaState]:
    """Every position of a random game (choices drawn from ``Rng(choices)``), the final one last; odd
    ``choices`` play with option ``priestess=optional`` (even ones with the default, compulsory)."""
    return random_positions(new(variant, seed, "optional" if choices % 2 else None), Rng(choices))


@settings(max_examples=25, deadline=None)
@given(VARIANTS, SEEDS, SEEDS)
def test_components_are_conserved(variant: str, seed: int, choices: int) -> None:
    """42 palm cards, 16 statues, 4 lava chips, 2 × (5 number discs + 1 lava disc), always."""
    for s in playout(variant, seed, choices):
        conserved(s)
        for discs in s.discs:
            assert all(d == SUPPLY or 0 <= d < 6 for d in discs[:LAVA_DISC])
            assert (discs[LAVA_DISC] == BOX) == (variant == "basic")
        assert sum(s.craters) + (4 - sum(s.craters)) == 4 and min(s.craters) >= 0


@settings(max_examples=25, deadline=None)
@given(VARIANTS, SEEDS, SEEDS)
def test_rule_invariants(variant: str, seed: int, choices: int) -> None:
    """Sums on a beach always differ (or both are 0); the boat's beach is empty at every turn; the
    bays are full while cards remain; chips only lie on craters between turns."""
    positions = playout(variant, seed, choices)
    for s in positions:
        red, yellow = beach_sums(s, 0), beach_sums(s, 1)
        assert all(r != y or r == 0 for r, y in zip(red, yellow, strict=True))
        if s.phase == TURN:
            assert red[s.boat] == 0 and yellow[s.boat] == 0
            if any(s.decks):
                assert -1 not in s.bays
    final = positions[-1]
    assert final.phase == OVER and final.round == 2 and len(final.round_points) == 2
    assert not final.decks[2]
    assert final.points == [sum(p[seat] for p in final.round_points) for seat in (0, 1)]
    assert len(final.winners()) == 1


@settings(max_examples=10, deadline=None)
@given(VARIANTS, SEEDS, SEEDS)
def test_contract_at_every_step(variant: str, seed: int, choices: int) -> None:
    """Legal actions ascending inside the action space, notation round trip, JSON round trip, views
    that survive determinisation, independent clones."""
    game = new().game
    rng = Rng(choices ^ 0x5EED)
    for s in playout(variant, seed, choices)[::7]:
        for seat in s.seats_to_act():
            legal = s.legal_actions(seat)
            assert legal == sorted(set(legal)) and legal and legal[0] >= 0 and legal[-1] < ACTION_SPACE
            assert all(s.parse_action(seat, s.action_text(seat, a)) == a for a in legal)
            twin = s.determinise(seat, rng)
            assert twin.view(seat) == s.view(seat) and twin.view(None) == s.view(None)
            assert [sorted(d) for d in twin.decks] == [sorted(d) for d in s.decks]
        data = s.to_json()
        assert game.state_from_json(json.loads(json.dumps(data))).to_json() == data
        json.dumps(s.view(None))


def test_clone_is_independent() -> None:
    s = new("tactical", 5)
    twin = s.clone()
    before = s.to_json()
    rng = Rng(9)
    for _ in range(200):
        if twin.is_over:
            break
        seat = twin.seats_to_act()[0]
        twin.step(seat, rng.choice(twin.legal_actions(seat)))
    assert s.to_json() == before


def test_the_view_hides_only_the_deck_order() -> None:
    s = new(seed=11)
    other = s.clone()
    for deck in other.decks:
        deck.reverse()
    assert other.to_json() != s.to_json()
    assert other.view(0) == s.view(0) and other.view(None) == s.view(None)
    seen = s.view(None)
    assert "rng" not in seen and "seed" not in seen
    assert seen["decks"][1] == {"statue": 4, "shell": 2, "fish2": 1, "fish4": 1, "black-pearl": 1, "lava": 3}


def test_determinise_reshuffles_the_decks() -> None:
    s = new(seed=2)
    twin = s.determinise(0, Rng(1))
    assert twin.decks != s.decks and twin.rng.state != s.rng.state
    assert twin.view(0) == s.view(0)
