"""The first integer of a freshly seeded NumPy generator, without building the generator.

The lab draws each crystal base from its own generator,
``numpy.random.default_rng([seed, role, crc32(node)]).integers(0, 101)``, so a reset builds a
dozen generators for one number each; building one (``SeedSequence`` hashing, ``PCG64``
seeding, the ``Generator``) costs ~15 µs, most of a reset.  :func:`first_integer` computes the
same number in plain integer arithmetic: NumPy's ``SeedSequence`` mixing (pool of 4 words,
its hash constants), ``PCG64``'s seeding and XSL-RR output, and ``Generator.integers``'
Lemire rejection on 32-bit draws.  :class:`FirstIntegers` does the mixing of many entropies at
once, each in its own 64-bit lane of one Python integer (the same unrolled statements on packed
words: a multiplication by a 32-bit constant cannot carry from one lane into the next).  This
re-implements NumPy's algorithm because a benchmark shows it pays: for a 7-node reset's 12
draws ``tests/benchmarks/bench_rl.py`` measures :class:`FirstIntegers` 3.4–4.4× faster than
:func:`first_integer` lane by lane and 5.5–7.6× faster than NumPy's generators (it prints all
three).  A property test compares it with NumPy on random entropy and bounds; inputs outside
its fast domain (negative values, more than four 32-bit words of entropy, a bound beyond 32
bits) are passed to NumPy itself, so every input gives NumPy's number or NumPy's error.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["FirstIntegers", "first_integer"]

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


#: one statement of the unrolled mixing: ``("hash", name, source, c0, c1)`` is
#: ``name = x16(((source ^ c0) * c1) mod 2**32)``, ``("mix", name, pool word, hashed word)`` is
#: ``name = x16((MIX_L * pool word - MIX_R * hashed word) mod 2**32)``; x16(v) = v ^ (v >> 16)
_Statement = tuple[Any, ...]


def _mixer_program() -> list[_Statement]:
    """SeedSequence's mixing of four entropy words ``w0..w3`` and its ``generate_state(4, uint64)``
    (the eight 32-bit state words ``s0..s7``), unrolled with the constants in place; each name is
    assigned once (``p<word>_<version>``, ``h<k>``)."""
    a, b = _A, _B
    out: list[_Statement] = []
    pool = [f"w{k}" for k in range(4)]
    version = [0] * 4

    def renamed(k: int) -> str:
        version[k] += 1
        pool[k] = f"p{k}_{version[k]}"
        return pool[k]

    for k in range(4):  # hash each word into the pool
        source = pool[k]
        out.append(("hash", renamed(k), source, a[k], a[k + 1]))
    k = 4
    for src in range(4):  # then every pool word into every other one
        for dst in range(4):
            if src != dst:
                h = f"h{k}"
                out.append(("hash", h, pool[src], a[k], a[k + 1]))
                old = pool[dst]
                out.append(("mix", renamed(dst), old, h))
                k += 1
    for i in range(8):  # eight 32-bit state words
        out.append(("hash", f"s{i}", pool[i & 3], b[i], b[i + 1]))
    return out


def _mixer_source() -> str:
    """``_mix(w0, w1, w2, w3)``: :func:`_mixer_program` as straight-line scalar code (2× faster
    than the loops it is generated from); it returns PCG64's ``(initstate, initseq)``."""
    m32 = _M32
    body = []
    for st in _mixer_program():
        if st[0] == "hash":
            _, name, source, c0, c1 = st
            body.append(f"t = (({source} ^ {c0}) * {c1}) & {m32}")
        else:
            _, name, old, h = st
            body.append(f"t = ({_MIX_L} * {old} - {_MIX_R} * {h}) & {m32}")
        body.append(f"{name} = t ^ (t >> 16)")
    body.append("return (s0 | s1 << 32) << 64 | (s2 | s3 << 32), (s4 | s5 << 32) << 64 | (s6 | s7 << 32)")
    return "def _mix(w0, w1, w2, w3):\n    " + "\n    ".join(body) + "\n"


_namespace: dict[str, Any] = {}
exec(compile(_mixer_source(), "<causalcheck.lab.seeding mixer>", "exec"), _namespace)  # our own generated source
#: PCG64's ``(initstate, initseq)`` from the four entropy words
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


#: PCG64's state after seeding and one step, in one expression: with ``inc = 2·initseq + 1``,
#: ``((inc + initstate)·M + inc)·M + inc = initstate·M² + initseq·2(M² + M + 1) + (M² + M + 1)`` (mod 2**128)
_TWO_STEPS = _PCG_MULT * _PCG_MULT & _M128
_TWO_STEPS_ADD = (_TWO_STEPS + _PCG_MULT + 1) & _M128
_TWO_STEPS_SEQ = 2 * _TWO_STEPS_ADD & _M128


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


# ---------------------------------------------------------------------------- many draws at once
#: lanes in one packed integer (a longer list of entropies is drawn in chunks of this many)
_LANES = 16


def _lanes_source() -> str:
    """:func:`_mixer_program` on packed words: each value holds one 32-bit word per 64-bit lane.

    XOR and masks act lane by lane; a lane (< 2**32) times a 32-bit constant is < 2**64, so a
    product never carries into the next lane; ``x >> 16`` moves the next lane's low bits into
    bits 48..63, which the mask after it clears.  ``a - b mod 2**32`` is ``a + (2**32 - (b mod
    2**32))``, no borrow: ``MIX_L * a + 2**32 <= 2**64 - 2**32 + 1``.  The hash constants come
    as packed arguments (``K<k>``: the constant in every lane), the returned values are the
    ``PCG64`` seeds' four 64-bit halves per lane (``initstate`` low, high; ``initseq`` low, high).
    """
    body = []
    consts = []
    for st in _mixer_program():
        if st[0] == "hash":
            _, name, source, c0, c1 = st
            consts.append(c0)
            body += [f"t = (({source} ^ K{len(consts) - 1}) * {c1}) & M", f"{name} = (t ^ (t >> 16)) & M"]
        else:
            _, name, old, h = st
            body += [f"t = ({_MIX_L} * {old} + (B32 - (({_MIX_R} * {h}) & M))) & M", f"{name} = (t ^ (t >> 16)) & M"]
    body.append("return s2 | (s3 << 32), s0 | (s1 << 32), s6 | (s7 << 32), s4 | (s5 << 32)")
    params = ", ".join(["M", "B32", *(f"K{i}" for i in range(len(consts)))])
    return (
        f"def _build_lanes({params}):\n"
        "    def _lanes(w0, w1, w2, w3):\n        " + "\n        ".join(body) + "\n"
        "    return _lanes\n"
        f"\n\n_LANE_CONSTANTS = {tuple(consts)!r}\n"
    )


exec(compile(_lanes_source(), "<causalcheck.lab.seeding lanes>", "exec"), _namespace)  # our own generated source
_build_lanes: Callable[..., Callable[[int, int, int, int], tuple[int, int, int, int]]] = _namespace["_build_lanes"]
_LANE_CONSTANTS: tuple[int, ...] = _namespace["_LANE_CONSTANTS"]


class FirstIntegers:
    """``[first_integer((seed, *tail), high) for tail in tails]`` for seed after seed.

    The tails (the lab's ``(role, crc32(node))`` of a reset's crystal bases) are checked and
    packed once; each call packs the seed into every lane, runs the mixing once for all lanes
    (module docstring) and draws each lane's number.  A tail or bound outside the fast domain
    (words of 32 bits, a bound of at most 2**32), or such a seed, goes to :func:`first_integer`
    lane by lane: the same number or error as NumPy for every input (a property test).
    """

    __slots__ = ("_chunks", "_fast", "high", "tails")

    def __init__(self, tails: Sequence[tuple[int, int]], high: int) -> None:
        self.tails = tuple(tuple(t) for t in tails)
        self.high = high
        self._fast = type(high) is int and 1 < high <= _M32 + 1 and all(
            len(t) == 2 and all(type(w) is int and 0 <= w <= _M32 for w in t) for t in self.tails
        )
        self._chunks: list[tuple[int, Callable[[int, int, int, int], tuple[int, int, int, int]], int, int, int, str]] = []
        if not self._fast:
            return
        for at in range(0, len(self.tails), _LANES):
            part = self.tails[at : at + _LANES]
            n = len(part)
            ones = int.from_bytes(b"\x01\x00\x00\x00\x00\x00\x00\x00" * n, "little")  # 1 in every lane
            lanes = _build_lanes(ones * _M32, ones << 32, *(ones * c for c in _LANE_CONSTANTS))
            w1 = int.from_bytes(struct.pack(f"<{n}Q", *(t[0] for t in part)), "little")
            w2 = int.from_bytes(struct.pack(f"<{n}Q", *(t[1] for t in part)), "little")
            self._chunks.append((ones, lanes, w1, w2, n, f"<{n}Q"))

    def __reduce__(self) -> tuple[type[FirstIntegers], tuple[tuple[tuple[int, ...], ...], int]]:
        """Pickled as its tails and bound (the lanes are functions made by ``exec``: made again on load)."""
        return (FirstIntegers, (self.tails, self.high))

    def __call__(self, seed: int) -> list[int]:
        high = self.high
        if not self._fast or type(seed) is not int or not 0 <= seed <= _M32:
            return [first_integer((seed, *t), high) for t in self.tails]
        out: list[int] = []
        for ones, lanes, w1, w2, n, fmt in self._chunks:
            lo_s, hi_s, lo_q, hi_q = lanes(seed * ones, w1, w2, 0)
            size = 8 * n
            ls = struct.unpack(fmt, lo_s.to_bytes(size, "little"))
            hs = struct.unpack(fmt, hi_s.to_bytes(size, "little"))
            lq = struct.unpack(fmt, lo_q.to_bytes(size, "little"))
            hq = struct.unpack(fmt, hi_q.to_bytes(size, "little"))
            for j in range(n):  # _draw's first output, inlined; its rare rejection goes to _draw
                st = ((hs[j] << 64 | ls[j]) * _TWO_STEPS + (hq[j] << 64 | lq[j]) * _TWO_STEPS_SEQ + _TWO_STEPS_ADD) & _M128
                x = ((st >> 64) ^ st) & _M64
                rot = st >> 122
                m = (((x >> rot) | (x << ((64 - rot) & 63))) & _M32) * high
                out.append(m >> 32 if m & _M32 >= high else _draw(hs[j] << 64 | ls[j], hq[j] << 64 | lq[j], high))
        return out
