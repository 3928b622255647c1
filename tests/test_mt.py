"""engine/mt.py draws what CPython's random.Random draws, method for method, seed for seed."""

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from nemeton.engine import mt  # noqa: E402

SEEDS = [0, 1, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 5, 2**63 - 1, 123456789123456789]


def stream(seed):
    s = mt.new_streams(1)[0]
    mt.seed(s, seed)
    return s


@pytest.mark.parametrize("seed", SEEDS)
def test_words_and_bits(seed):
    ref, s = random.Random(seed), stream(seed)
    for k in [32, 1, 5, 31, 17] * 300:  # more than 624 words: the stream twists several times
        assert mt.getrandbits(s, k) == ref.getrandbits(k)
    assert int(mt.getrandbits64(s)) == ref.getrandbits(64)
    for _ in range(50):
        assert mt.random(s) == ref.random()


@pytest.mark.parametrize("seed", SEEDS)
def test_randbelow_randrange_randint_choice(seed):
    ref, s = random.Random(seed), stream(seed)
    for n in list(range(1, 70)) + [1000, 2**31, 2**32 - 1]:
        assert mt.randbelow(s, n) == ref._randbelow(n)
        assert mt.randrange(s, n) == ref.randrange(n)
        assert mt.randint(s, 1, 6) == ref.randint(1, 6)
        seq = list(range(n if n < 100 else 7))
        assert mt.choice_index(s, len(seq)) == seq.index(ref.choice(seq))


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle(seed):
    ref, s = random.Random(seed), stream(seed)
    for n in [0, 1, 2, 3, 10, 52, 88]:
        x = list(range(n))
        arr = np.arange(n + 3, dtype=np.int64)  # only the first n are shuffled
        ref.shuffle(x)
        mt.shuffle(s, arr, n)
        assert arr[:n].tolist() == x and arr[n:].tolist() == [n, n + 1, n + 2]


@pytest.mark.parametrize("seed", SEEDS)
def test_sample_both_algorithms(seed):
    ref, s = random.Random(seed), stream(seed)
    for n, k in [(5, 2), (6, 6), (21, 3), (22, 3), (30, 6), (200, 10), (1000, 40), (8, 0)]:
        want = ref.sample(range(n), k)
        out = np.zeros(k, dtype=np.int64)
        mt.sample(s, np.arange(n, dtype=np.int64), n, k, out)
        assert out.tolist() == want
