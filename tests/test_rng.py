"""The generator's draws are part of every game's contract (seeded chance, golden records): the fast
paths of below() and shuffle() must draw exactly what the plain algorithm draws."""

from __future__ import annotations

import pytest

from spieltafel.core import Rng
from spieltafel.core.kiss import Kiss99


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


def test_kiss99_gives_marsaglias_published_check_value() -> None:
    """The 1999 post's test program: settable(12345, 65435, 34221, 12345, …) fills a 256-word table
    with KISS, then a million more KISS calls end on 1372460312."""
    kiss = Kiss99(12345, 65435, 34221, 12345)
    word = 0
    for _ in range(256 + 1_000_000):
        word = kiss.next32()
    assert word == 1372460312


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**64 - 1, (36969 * 65536 - 1) << 32, 0x1234_5678_1234_5678])
def test_kiss99_from_seed_never_starts_in_a_stuck_state(seed: int) -> None:
    """The multiply-with-carry words must not be 0 or their fixed point, the shift register not 0."""
    kiss = Kiss99.from_seed(seed)
    assert kiss.z not in (0, 36969 * 65536 - 1) and kiss.w not in (0, 18000 * 65536 - 1) and kiss.jsr != 0
    words = [kiss.next32() for _ in range(8)]
    assert len(set(words)) == 8 and all(0 <= word < 2**32 for word in words)


def reference_permute(kiss: Kiss99, items: list[int]) -> None:
    """Kiss99.permute() written plainly on next32(): Fisher–Yates with rejection sampling."""
    for i in range(len(items) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        word = kiss.next32()
        while word >= limit:
            word = kiss.next32()
        j = word % (i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
def test_permute_draws_like_its_plain_algorithm(seed: int) -> None:
    fast, plain = Rng(seed).kiss(), Rng(seed).kiss()
    for length in [*range(100), 500, 2000]:
        items, expected = list(range(length)), list(range(length))
        fast.permute(items)
        reference_permute(plain, expected)
        assert items == expected and sorted(items) == list(range(length))
        assert (fast.z, fast.w, fast.jsr, fast.jcong) == (plain.z, plain.w, plain.jsr, plain.jcong)
    assert fast.seed64() == plain.next32() << 32 | plain.next32()


def test_kiss_is_seeded_by_one_draw() -> None:
    rng, twin = Rng(11), Rng(11)
    assert rng.kiss().next32() == Kiss99.from_seed(twin.next64()).next32() and rng.state == twin.state


def test_permute_is_uniform() -> None:
    kiss, counts = Rng(3).kiss(), dict[tuple[int, ...], int]()  # every order of 4 items about equally often
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        kiss.permute(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24 and all(850 < c < 1150 for c in counts.values())
