"""What the fuzz tests share: the games (from the registry), valid documents to mutate, the
mutations, the settings and a count of the cases run (printed at the end of the session)."""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from spieltafel.core import Game, Rng, State, all_games

CASES: list[tuple[Game, int]] = [
    (game, players) for game in all_games() for players in range(game.min_players, game.max_players + 1)
]
IDS = [f"{game.name}-{players}p" for game, players in CASES]
EXAMPLES = int(os.environ.get("SPIELTAFEL_FUZZ_EXAMPLES", "60"))
"""Hypothesis examples per test and game; ``SPIELTAFEL_FUZZ_EXAMPLES=2000`` for a long run."""
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
COUNTS: Counter[str] = Counter()
"""Cases run per kind (documents, actions, CLI), reported by ``conftest.py``."""


def positions(game: Game, players: int, seed: int = 3, every: int = 7, limit: int = 20) -> list[State]:
    """Up to ``limit`` positions of a random game, one every ``every`` decisions (all phases appear)."""
    state = game.new_state(players, seed)
    rng = Rng(seed)
    found: list[State] = []
    count = 0
    while not state.is_over and len(found) < limit:
        if count % every == 0:
            found.append(state.clone())
        acting = state.seats_to_act()
        seat = acting[rng.below(len(acting))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        count += 1
    return [*found, state]


ODD_VALUES = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 0, 1, 2, 5, 99, 2**63, 2**64, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.just([]),
    st.just({}),
    st.lists(st.integers(-3, 100), max_size=6),
)


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (keys of objects, indexes of lists)."""
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*here, index))
    return found


def get(document: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        document = document[part]
    return document


@st.composite
def mutated(draw: st.DrawFn, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with one to three mutations: a value replaced (odd types, huge numbers, NaN), a
    number nudged (breaking a conservation law), a key removed or added, deep nesting."""
    result = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(result) if p]
        place = draw(st.sampled_from(places))
        parent, last = get(result, place[:-1]), place[-1]
        kind = draw(st.sampled_from(["replace", "nudge", "remove", "add", "nest"]))
        if kind == "replace":
            parent[last] = draw(ODD_VALUES)
        elif kind == "nudge" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += draw(st.sampled_from([-1, 1, 2, -2, 7]))
        elif kind == "remove" and isinstance(parent, dict):
            del parent[last]
        elif kind == "remove" and isinstance(parent, list) and parent:
            parent.pop(last)
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(ODD_VALUES)
        elif kind == "add" and isinstance(parent, list):
            parent.append(draw(ODD_VALUES))
        else:
            deep: Any = 0
            for _ in range(draw(st.integers(2, 200))):
                deep = [deep]
            parent[last] = deep
    return result


def dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


NOTATION_WORDS = [
    "draw", "end", "place", "discard", "bonus", "take", "boat", "move", "stay", "card", "priestess", "buy", "pass",
    "play", "cloud", "up", "down", "left", "right", "load", "unload", "steal", "leave", "done", "any", "lava",
    "W", "B", "O", "BBW", "7c", "1a", "14g", "b2", "f3", "c3", "3a", "ruby", "amber", "2b", "a", "b", "3", "6",
    "0", "99", "²", "٣", "[/]", "[bold]", "[any]", "\x00", "\n", "−1", "1" * 5000,
]
ACTION_TEXTS = st.one_of(
    st.lists(st.sampled_from(NOTATION_WORDS), min_size=1, max_size=5).map(" ".join),
    st.text(max_size=40),
    st.text(alphabet="[]/bold redany ", max_size=30),
    st.integers(0, 10**6).map(lambda n: "x" * n),
)
