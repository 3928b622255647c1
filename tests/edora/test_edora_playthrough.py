"""A recorded random 3-player game: the same seed and choices must give the same game.

If a rule changes on purpose, re-record the figures below (and say so in the commit)."""

import hashlib
import random

from nemeton.engine import make


def test_recorded_playthrough_is_unchanged():
    st = make("edora", players=3, seed=21, safety_valve=True)
    rng = random.Random(21)
    texts = []
    while not st.is_terminal():
        a = rng.choice(st.legal_actions())
        texts.append(str(a))
        st.apply(a)
    assert texts[:8] == ["start at ST2 (next to S07)", "start at ST3 (next to S24)",
                         "start at ST4 (next to S18)", "place die 5 on S18 space 3 (SI2)",
                         "activate the sickle herb (the rune herb face down)", "place die 5 on S24 space 2 (KN2)",
                         "place die 4 on S07 space 1 (FD)", "take 3 dice from the overview board"]
    assert (len(texts), st.scores(), st.round) == (142, [34.0, 61.0, 125.0], 17)
    assert hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16] == "73e62d1f9c9185d1"
