"""The lab's seeded draws: NumPy's own generators on ``[seed, role, crc32(name)]``, pinned to the numbers
every released run and golden capture was made with."""

from __future__ import annotations

import pytest
from causalcheck.lab.seeding import (
    CRYSTAL_BASE_HIGH,
    crystal_base,
    disturbance_rng,
    name_entropy,
    prior_rng,
)

#: (seed, role, node) -> crystal base, as drawn by the lab before it used NumPy directly (its earlier
#: re-implementation of SeedSequence/PCG64, property-tested against NumPy): the values must not move
PINNED = {
    (0, 0, "density"): 73, (0, 0, "moisture"): 100, (0, 1, "density"): 62, (0, 1, "moisture"): 44,
    (1, 0, "density"): 11, (1, 0, "moisture"): 47, (1, 1, "density"): 90, (1, 1, "moisture"): 49,
    (7, 0, "density"): 87, (7, 0, "moisture"): 62, (7, 1, "density"): 16, (7, 1, "moisture"): 32,
    (2**31 - 1, 0, "density"): 81, (2**31 - 1, 0, "moisture"): 79, (2**31 - 1, 1, "density"): 55,
    (2**31 - 1, 1, "moisture"): 52, (2**33 + 5, 0, "density"): 49, (2**33 + 5, 0, "moisture"): 93,
    (2**33 + 5, 1, "density"): 17, (2**33 + 5, 1, "moisture"): 63,
}


@pytest.mark.parametrize(("key", "value"), sorted(PINNED.items()))
def test_crystal_bases_are_the_pinned_draws(key: tuple[int, int, str], value: int) -> None:
    """Each crystal base is the number the lab has always drawn for its seed, role and node (seeds past 32 bits too)."""
    assert crystal_base(*key) == value
    assert 0 <= value < CRYSTAL_BASE_HIGH


def test_each_role_has_its_own_generator() -> None:
    """The disturbance (role 2) and per-seed prior records (role 3) of a graph draw from separate, seeded streams."""
    assert name_entropy("4nodes_0") == 1_804_171_611
    assert [int(x) for x in disturbance_rng(3, "4nodes_0").integers(0, 3, size=4)] == [0, 0, 1, 0]
    assert [int(x) for x in prior_rng(3, "4nodes_0").integers(0, 101, size=4)] == [19, 67, 48, 93]


def test_a_negative_seed_is_numpys_error() -> None:
    """NumPy's SeedSequence refuses negative entropy; the lab passes its error on unchanged."""
    with pytest.raises(ValueError, match="negative"):
        crystal_base(-1, 0, "density")
