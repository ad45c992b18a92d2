"""The bots' heuristic: it reads the position in the game's terms and beats random play."""

from __future__ import annotations

from haleakala_scenario import RED, YELLOW, new, statue

from spieltafel.bots import make_bot
from spieltafel.core import get_game
from spieltafel.games.haleakala.heuristics import evaluate, values
from spieltafel.match import play_game


def test_statues_count_for_both_scorings_unless_lava_threatens_them() -> None:
    s = new()
    statue(s, RED, "m2")
    assert values(s)[RED] == 3 * 2 + 0.3 * 0  # a mountain statue for two scorings; shaman on the beach
    s.craters[1] = 1  # one chip above: the next eruption takes the mountain statue
    assert values(s)[RED] == 3
    statue(s, YELLOW, "g4")
    assert evaluate(s, RED) == 3 - 2 and evaluate(s, YELLOW) == 2 - 3


def test_greedy_beats_random() -> None:
    game = get_game("haleakala")
    wins = 0
    for seed in range(6):
        variant = "tactical" if seed % 2 else "basic"
        greedy_seat = seed % 2
        bots = [make_bot("random", seed), make_bot("random", seed)]
        bots[greedy_seat] = make_bot("greedy", seed)
        final, _ = play_game(game, 2, seed, bots, {"variant": variant})
        wins += final.winners() == [greedy_seat]
    assert wins >= 5
