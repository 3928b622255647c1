"""CPython's ``random.Random`` in Numba: the same Mersenne Twister, seeded the same way from
an integer, drawing the same numbers for ``getrandbits``, ``random``, ``_randbelow`` and the
methods the rules use (``shuffle``, ``choice``, ``randrange``, ``randint``, ``sample``).

A compiled kernel (``games/<g>/kernel.py``) must deal the game the reference deals for a
seed, and a random agent in the kernel must choose what ``RandomAgent`` chooses for its
seed; both follow from drawing the same stream. A stream is one ``uint32`` row of
``STREAM_WORDS`` words: the generator's 624 words, then its position (``stream[624]``).
A batch of B games keeps its streams as a ``(B, STREAM_WORDS)`` array, one row per game
(or per seat of each game), so a kernel passes ``streams[i]`` around without copying.

Every function here is ``numba.njit``-compiled (cached on disk) and, with
``NUMBA_DISABLE_JIT=1``, runs as plain Python; ``tests/test_mt.py`` checks each one against
``random.Random`` draw for draw. Mirrors CPython 3.11-3.13's ``Modules/_randommodule.c``
and ``Lib/random.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

N = 624
M = 397
STREAM_WORDS = N + 1
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
_MASK32 = np.uint64(0xFFFFFFFF)


def new_streams(count: int) -> np.ndarray:
    """``count`` unseeded streams (seed them with :func:`seed`)."""
    return np.zeros((count, STREAM_WORDS), dtype=np.uint32)


@njit(cache=True)
def _init_genrand(mt, s):
    mt[0] = np.uint32(s)
    for i in range(1, N):
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32((np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i)) & _MASK32)
    mt[N] = N


@njit(cache=True)
def seed(mt, value):
    """Seed ``mt`` as ``random.Random(value)`` does for a non-negative int below 2**64
    (CPython's ``init_by_array`` on the value's 32-bit words, least significant first)."""
    v = np.uint64(value)
    lo = np.uint64(v & _MASK32)
    hi = np.uint64(v >> np.uint64(32))
    key_length = 2 if hi != 0 else 1
    _init_genrand(mt, 19650218)
    i = 1
    j = 0
    k = N if N > key_length else key_length
    while k > 0:
        prev = np.uint64(mt[i - 1])
        word = lo if j == 0 else hi
        mt[i] = np.uint32(((np.uint64(mt[i]) ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)))
                           + word + np.uint64(j)) & _MASK32)
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key_length:
            j = 0
        k -= 1
    k = N - 1
    while k > 0:
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32(((np.uint64(mt[i]) ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)))
                           - np.uint64(i)) & _MASK32)
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        k -= 1
    mt[0] = np.uint32(0x80000000)
    mt[N] = N


@njit(cache=True)
def _twist(mt):
    for kk in range(N - M):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + M] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else np.uint32(0))
    for kk in range(N - M, N - 1):
        y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
        mt[kk] = mt[kk + M - N] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else np.uint32(0))
    y = (mt[N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[N - 1] = mt[M - 1] ^ (y >> np.uint32(1)) ^ (_MATRIX_A if y & np.uint32(1) else np.uint32(0))
    mt[N] = 0


@njit(cache=True)
def genrand_uint32(mt):
    """The next 32-bit word of the stream."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit(cache=True)
def getrandbits(mt, k):
    """``getrandbits(k)`` for 1 <= k <= 32, as an int64."""
    return np.int64(genrand_uint32(mt) >> np.uint32(32 - k))


@njit(cache=True)
def getrandbits64(mt):
    """``getrandbits(64)`` as a uint64 (words least significant first, as CPython fills them)."""
    lo = np.uint64(genrand_uint32(mt))
    hi = np.uint64(genrand_uint32(mt))
    return lo | (hi << np.uint64(32))


@njit(cache=True)
def random(mt):
    """``random()``: a float in [0, 1) with 53 random bits."""
    a = np.float64(genrand_uint32(mt) >> np.uint32(5))
    b = np.float64(genrand_uint32(mt) >> np.uint32(6))
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def bit_length(n):
    k = 0
    while n > 0:
        n >>= 1
        k += 1
    return k


@njit(cache=True)
def randbelow(mt, n):
    """``_randbelow(n)`` for 0 < n < 2**32: a uniform int in [0, n), by rejection on
    ``n.bit_length()`` bits (so ``n == 1`` still draws a word, as CPython does). Kept in
    unsigned 32-bit arithmetic: twice as fast as going through :func:`getrandbits`."""
    shift = np.uint32(32 - bit_length(n))
    bound = np.uint32(n)
    while True:
        r = genrand_uint32(mt) >> shift
        if r < bound:
            return np.int64(r)


@njit(cache=True)
def randrange(mt, n):
    """``randrange(n)``."""
    return randbelow(mt, n)


@njit(cache=True)
def randint(mt, a, b):
    """``randint(a, b)``: a uniform int in [a, b]."""
    return a + randbelow(mt, b - a + 1)


@njit(cache=True)
def shuffle(mt, x, n):
    """``shuffle`` of the first ``n`` items of the array ``x``, in place."""
    for i in range(n - 1, 0, -1):
        j = randbelow(mt, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t


@njit(cache=True)
def choice_index(mt, n):
    """The index ``choice(seq)`` takes from a sequence of length ``n`` (> 0)."""
    return randbelow(mt, n)


@njit(cache=True)
def _sample_setsize(k):
    setsize = 21
    if k > 5:
        m = 0
        p = 1
        while p < 3 * k:  # 4 ** ceil(log(3k, 4)); 3k is never a power of 4
            p *= 4
            m += 1
        setsize += p
    return setsize


@njit(cache=True)
def sample(mt, population, n, k, out):
    """``sample(population[:n], k)`` into ``out[:k]`` (CPython's two algorithms: a pool
    for small populations, rejection from a set of chosen indices otherwise)."""
    if n <= _sample_setsize(k):
        pool = population[:n].copy()
        for i in range(k):
            j = randbelow(mt, n - i)
            out[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        chosen = np.zeros(n, dtype=np.bool_)
        for i in range(k):
            j = randbelow(mt, n)
            while chosen[j]:
                j = randbelow(mt, n)
            chosen[j] = True
            out[i] = population[j]
