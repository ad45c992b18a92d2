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


def reference_permute(rng: Rng, items: list[int]) -> None:
    """permute() written plainly: Fisher–Yates, whose indices are the digits of draws below products
    of consecutive bounds of at most 2**60."""
    i = len(items) - 1
    while i > 0:
        bounds = []
        product = 1
        while i - len(bounds) > 0 and product * (i - len(bounds) + 1) <= 1 << 60:
            product *= i - len(bounds) + 1
            bounds.append(i - len(bounds) + 1)
        value = reference_below(rng, product)
        for bound in bounds:
            value, j = divmod(value, bound)
            items[i], items[j] = items[j], items[i]
            i -= 1


@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
def test_permute_draws_like_its_plain_algorithm(seed: int) -> None:
    fast, plain = Rng(seed), Rng(seed)
    for length in [*range(100), 500, 2000]:
        items, expected = list(range(length)), list(range(length))
        fast.permute(items)
        reference_permute(plain, expected)
        assert items == expected and sorted(items) == list(range(length))
        assert fast.state == plain.state


def test_permute_is_uniform() -> None:
    rng, counts = Rng(3), dict[tuple[int, ...], int]()  # every order of 4 items about equally often
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        rng.permute(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24 and all(850 < c < 1150 for c in counts.values())
