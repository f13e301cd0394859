"""``first_integer`` and ``FirstIntegers`` give NumPy's number (or NumPy's error) for every entropy and bound."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from causalcheck.lab.seeding import FirstIntegers, first_integer
from hypothesis import example, given
from hypothesis import strategies as st

_WORD_EDGES = st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**64 - 1, 2**64, 2**96, 2**128 - 1])
_VALUES = st.integers(0, 2**31 - 1) | st.integers(0, 2**130) | _WORD_EDGES | st.integers(-5, -1)
_BOUNDS = st.integers(2, 200) | st.integers(2, 2**32) | st.sampled_from([-3, 0, 1, 2, 101, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 2**40])


def _numpy(entropy: list[int], high: int) -> tuple[str, Any]:
    try:
        return "value", int(np.random.default_rng(entropy).integers(0, high))
    except Exception as exc:  # the comparison is with whatever NumPy does
        return "error", type(exc)


def _ours(entropy: list[int], high: int) -> tuple[str, Any]:
    try:
        return "value", first_integer(entropy, high)
    except Exception as exc:
        return "error", type(exc)


@given(st.lists(_VALUES, min_size=0, max_size=6), _BOUNDS)
@example([5, 0, 123456789], 101)  # a crystal base: (seed, role, crc32(name))
@example([0], 2)
@example([2**32 - 1, 2**32 - 1, 2**32 - 1, 2**32 - 1], 2**32)
@example([], 101)
def test_first_integer_is_numpys(entropy: list[int], high: int) -> None:
    assert _ours(entropy, high) == _numpy(entropy, high)


@pytest.mark.parametrize("seed", range(0, 4000, 37))
def test_first_integer_on_the_labs_entropy(seed: int) -> None:
    """The exact shape the lab draws: ``(seed, role, crc32(node))`` with ``integers(0, 101)``."""
    import zlib

    for role in (0, 1):
        for name in ("pressure", "moisture", "quantumSize", "resonanceFreq", "ümlaut"):
            entropy = (seed, role, zlib.crc32(name.encode("utf-8")))
            assert first_integer(entropy, 101) == int(np.random.default_rng(list(entropy)).integers(0, 101))


@given(_VALUES, st.lists(st.tuples(_VALUES, _VALUES), max_size=40), _BOUNDS)
@example(5, [(0, 123456789), (0, 0), (1, 2**32 - 1)], 101)  # a reset's (role, crc32) tails
@example(2**32 - 1, [(r, c) for r in (0, 1) for c in range(17)], 101)  # more lanes than one chunk
@example(2**32, [(0, 1)], 101)  # a seed of two words
@example(3, [(0, 1), (0, -1)], 101)  # one tail outside the lanes' domain
def test_first_integers_is_numpys_per_tail(seed: int, tails: list[tuple[int, int]], high: int) -> None:
    expected = [_numpy([seed, *t], high) for t in tails]
    draws = FirstIntegers(tails, high)
    for _ in range(2):  # the packed tails are reused from call to call
        try:
            got = [("value", v) for v in draws(seed)]
        except Exception as exc:  # the first failing tail's error, as NumPy raises it
            got = [("error", type(exc))]
            expected_now = [e for e in expected if e[0] == "error"][:1]
        else:
            expected_now = expected
        assert got == expected_now


@pytest.mark.parametrize("seed", range(0, 4000, 37))
def test_first_integers_on_a_resets_lanes(seed: int) -> None:
    """All of a 7-node reset's bases at once: both roles, every node's crc32."""
    import zlib

    names = ("pressure", "moisture", "quantumSize", "density", "radiation", "temperatureC", "ümlaut")
    tails = [(role, zlib.crc32(n.encode("utf-8"))) for role in (0, 1) for n in names]
    assert FirstIntegers(tails, 101)(seed) == [int(np.random.default_rng([seed, *t]).integers(0, 101)) for t in tails]
