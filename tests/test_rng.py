"""The generator's draws are part of every game's contract (seeded chance, golden records): the fast
paths of below() and shuffle() must draw exactly what the plain algorithm draws."""

from __future__ import annotations

import pytest

from spieltafel.core import Rng


def reference_below(rng: Rng, n: int) -> int:
    """below() written plainly on next64(): rejection sampling of a 64-bit draw."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value = rng.next64()
        if value < limit:
            return value % n


def test_splitmix64_sequence_is_the_published_one() -> None:
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1, 987654321987654321])
def test_below_choice_and_shuffle_draw_like_the_plain_algorithm(seed: int) -> None:
    fast, plain = Rng(seed), Rng(seed)
    bounds = [1, 2, 3, 7, 10, 100, 12345, 2**63 + 5, 2**64 - 1, 3 * 2**62 + 1]  # the big ones reject often
    for round_ in range(300):
        n = bounds[round_ % len(bounds)]
        assert fast.below(n) == reference_below(plain, n)
        items = list(range(round_ % 90))
        expected = items[:]
        for i in range(len(expected) - 1, 0, -1):
            j = reference_below(plain, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        fast.shuffle(items)
        assert items == expected
        assert fast.choice(("a", "b", "c", "d", "e")) == "abcde"[reference_below(plain, 5)]
        assert fast.state == plain.state


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="positive bound"):
        Rng(1).below(0)
