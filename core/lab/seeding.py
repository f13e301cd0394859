"""The first integer of a freshly seeded NumPy generator, without building the generator.

The lab draws each crystal base from its own generator,
``numpy.random.default_rng([seed, role, crc32(node)]).integers(0, 101)``, so a reset builds a
dozen generators for one number each; building one (``SeedSequence`` hashing, ``PCG64``
seeding, the ``Generator``) costs ~15 µs, most of a reset.  :func:`first_integer` computes the
same number in plain integer arithmetic: NumPy's ``SeedSequence`` mixing (pool of 4 words,
its hash constants), ``PCG64``'s seeding and XSL-RR output, and ``Generator.integers``'
Lemire rejection on 32-bit draws.  This re-implements NumPy's algorithm because a benchmark
shows it pays: 3–4× faster a draw (``tests/benchmarks/bench_rl.py`` prints both), ~120 µs off
each reset of a 7-node episode.  A property test compares it with NumPy on random entropy and
bounds; inputs outside its fast domain (negative values, more than four 32-bit words of
entropy, a bound beyond 32 bits) are passed to NumPy itself, so every input gives NumPy's
number or NumPy's error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["first_integer"]

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
_PCG_MULT = (2549297995355413924 << 64) | 4865540595714422341  # PCG64's 128-bit multiplier


def _constants(init: int, mult: int, count: int) -> tuple[int, ...]:
    out = [init]
    for _ in range(count):
        out.append(out[-1] * mult & _M32)
    return tuple(out)


# SeedSequence's hash constants, in the order its mixing uses them (INIT_A·MULT_A^k, INIT_B·MULT_B^k)
_A = _constants(0x43B0D7E5, 0x931E8875, 17)
_B = _constants(0x8B51F9DD, 0x58F38DED, 9)
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _numpy_first_integer(entropy: Sequence[int], high: int) -> int:
    import numpy as np

    return int(np.random.default_rng(list(entropy)).integers(0, high))


def _mixer_source() -> str:
    """The source of ``_mix(w0, w1, w2, w3)``: SeedSequence's mixing of four entropy words and its
    ``generate_state(4, uint64)``, unrolled with the constants in place (straight-line code is 2×
    faster than the loops it is generated from)."""
    a, b = _A, _B
    body = []
    for k in range(4):  # hash each word into the pool
        body += [f"v = (w{k} ^ {a[k]}) * {a[k + 1]} & {_M32}", f"p{k} = v ^ (v >> 16)"]
    k = 4
    for src in range(4):  # then every pool word into every other one
        for dst in range(4):
            if src != dst:
                body += [
                    f"h = (p{src} ^ {a[k]}) * {a[k + 1]} & {_M32}",
                    f"r = ({_MIX_L} * p{dst} - {_MIX_R} * (h ^ (h >> 16))) & {_M32}",
                    f"p{dst} = r ^ (r >> 16)",
                ]
                k += 1
    for i in range(8):  # eight 32-bit state words
        body += [f"v = (p{i & 3} ^ {b[i]}) * {b[i + 1]} & {_M32}", f"s{i} = v ^ (v >> 16)"]
    body.append("return (s0 | s1 << 32) << 64 | (s2 | s3 << 32), (s4 | s5 << 32) << 64 | (s6 | s7 << 32)")
    return "def _mix(w0, w1, w2, w3):\n    " + "\n    ".join(body) + "\n"


_namespace: dict[str, Any] = {}
exec(compile(_mixer_source(), "<causalcheck.lab.seeding mixer>", "exec"), _namespace)  # our own generated source
_mix: Callable[[int, int, int, int], tuple[int, int]] = _namespace["_mix"]


def first_integer(entropy: Sequence[int], high: int) -> int:
    """``int(numpy.random.default_rng(list(entropy)).integers(0, high))``, computed directly (module docstring)."""
    if len(entropy) == 3:  # the lab's (seed, role, crc32): three words, no conversion
        w0, w1, w2 = entropy
        if type(w0) is int and type(w1) is int and type(w2) is int and 0 <= w0 <= _M32 and 0 <= w1 <= _M32 and 0 <= w2 <= _M32 and type(high) is int and 1 < high <= _M32 + 1:
            return _draw(*_mix(w0, w1, w2, 0), high)
    words: list[int] = []
    for value in entropy:
        if type(value) is not int or value < 0:
            return _numpy_first_integer(entropy, high)
        if value <= _M32:
            words.append(value)
        else:
            while value:
                words.append(value & _M32)
                value >>= 32
    n = len(words)
    if not 0 < n <= 4 or type(high) is not int or not 1 < high <= _M32 + 1:
        return _numpy_first_integer(entropy, high)
    if n < 4:
        words += [0] * (4 - n)
    return _draw(*_mix(words[0], words[1], words[2], words[3]), high)


def _draw(initstate: int, initseq: int, high: int) -> int:
    """PCG64 seeded with *initstate* and *initseq*, then ``integers(0, high)``'s first number."""
    inc = (initseq << 1 | 1) & _M128
    state = ((inc + initstate) * _PCG_MULT + inc) & _M128  # pcg_setseq_128_srandom_r
    # Lemire's bounded draw on next_uint32 (the low half of a 64-bit output, then its high half)
    spare = -1
    threshold = -1
    while True:
        if spare >= 0:
            u, spare = spare, -1
        else:
            state = (state * _PCG_MULT + inc) & _M128
            x = ((state >> 64) ^ state) & _M64
            rot = state >> 122
            out = ((x >> rot) | (x << ((64 - rot) & 63))) & _M64
            u, spare = out & _M32, out >> 32
        m = u * high
        leftover = m & _M32
        if leftover >= high:
            return m >> 32
        if threshold < 0:
            threshold = (_M32 - (high - 1)) % high
        if leftover >= threshold:
            return m >> 32
