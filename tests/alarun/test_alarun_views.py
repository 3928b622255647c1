"""Views (the one gate for secrets), legal actions from a view, the determinizer, rendering."""

from __future__ import annotations

import random

from nemeton.engine import get_game
from nemeton.games.alarun.components import COLOURS
from nemeton.games.alarun.scoring import ScoreBreakdown

from alarun_helpers import act, cards, new, pass_round, place_all

SPEC = get_game("alarun")


def _swap_with_stack(cards_list, i, deck):
    """Exchange cards_list[i] with a stack card of another kind (a hidden change)."""
    j = next(j for j, c in enumerate(deck) if c != cards_list[i])
    cards_list[i], deck[j] = deck[j], cards_list[i]


def test_other_hands_are_hidden():
    st = new(3, seed=2)
    before = {s: st.view(s) for s in (0, 1, 2, None)}
    _swap_with_stack(st.hands[2], 0, st.deck)
    st.hands[2].sort()
    assert st.view(0) == before[0] and st.view(1) == before[1] and st.view(None) == before[None]
    assert st.view(2)["hand"] != before[2]["hand"]  # only its owner sees the change
    assert "hand" not in before[None] and before[1]["hand_sizes"] == [3, 3, 3]


def test_the_stack_order_is_hidden():
    st = new(4, seed=2)
    before = [st.view(s) for s in range(4)]
    st.deck.reverse()
    assert [st.view(s) for s in range(4)] == before
    assert before[0]["deck_size"] == len(st.deck)


def test_cards_taken_from_the_centre_are_known_to_everyone():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    act(st, "swap mandrake:red <-> myrrh:blue")
    assert st.view(2)["known_hands"][0] == ["myrrh:blue"]
    assert st.view(None)["known_hands"][0] == ["myrrh:blue"]
    act(st, "swap all and pass")  # seat 1 takes the whole centre: all three known
    assert sorted(st.view(0)["known_hands"][1]) == sorted(["mandrake:red", "calendula:green",
                                                           "phoenix_feathers:orange"])


def test_secret_colours_are_hidden_until_the_end_a7():
    st = new(4, seed=3, action_cap=10)
    for seat in range(4):
        v = st.view(seat)
        assert v["secret_colour"] == COLOURS[st.secret[seat]]
        assert "secret_colours" not in v and "breakdowns" not in v
        assert v["scores"] == [None] * 4  # the envelope: no score is public before the end
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    end = st.view(0)
    assert end["secret_colours"] == [COLOURS[c] for c in st.secret]
    assert [s["total"] for s in end["breakdowns"]] == st.scores() == end["scores"]


def test_two_player_face_down_cards_are_hidden():
    st = new(2, seed=4)
    before = [st.view(s) for s in (0, 1, None)]
    _swap_with_stack(st.face_down, 0, st.deck)
    assert [st.view(s) for s in (0, 1, None)] == before
    assert before[0]["face_down"] == 3


def test_another_players_secret_colour_is_hidden():
    st = new(3, seed=4)
    before = [st.view(s) for s in (0, 1, None)]
    st.secret[2] = next(c for c in range(7) if c not in st.secret)
    assert [st.view(s) for s in (0, 1, None)] == before
    assert st.view(2)["secret_colour"] == COLOURS[st.secret[2]]


def test_determinizer_resamples_hidden_parts_and_keeps_the_view():
    st = new(3, seed=9)
    act(st, st.legal_actions()[0].__str__())
    pass_round(st)
    st.apply(st.legal_actions(1)[0], 1)  # seat 1 placed one card, hidden from seat 0
    view = st.view(0)
    samples = [SPEC.determinize(view, random.Random(k)) for k in range(6)]
    for sample in samples:
        assert sample.view(0) == view
        assert sample.legal_actions(0) == st.legal_actions(0)
        assert sample.secret[0] == st.secret[0] and len(set(sample.secret)) == 3
        assert sample.history == [] and sample.seed is None
    assert len({tuple(s.deck) for s in samples}) > 1
    assert len({tuple(s.hands[2]) for s in samples}) > 1
    # seat 1's hidden placement lands on a legal cell next to its druid
    assert all(s.squares[1].count() == 2 and len(s.pending[1]) == 1 for s in samples)


def test_legal_actions_from_view_match_the_state():
    st = new(2, seed=1, action_cap=6)
    rng = random.Random(1)
    while not st.is_terminal():
        for seat in st.acting():
            assert SPEC.legal_actions_from_view(st.view(seat)) == st.legal_actions(seat)
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)


def test_final_view_reveals_every_breakdown():
    st = new(3, seed=1)
    while not st.is_terminal():
        pass_round(st)
        place_all(st)
    v = st.view(None)
    assert v["phase"] == "over" and v["terminal"] and len(v["breakdowns"]) == 3
    assert set(v["breakdowns"][0]) >= {"rows", "columns", "potions", "centum_auri", "colour_bonus", "total", "druid"}
    assert v["winners"] == st.winners()


def test_ranking_breaks_ties_on_potion_points_then_shares():
    st = new(4, seed=1)
    while not st.is_terminal():
        pass_round(st)
        place_all(st)
    five = (3,) * 5

    def score(total, potions):
        return ScoreBreakdown(five, five, potions, 10 if total - potions >= 10 else 0,
                              (total - potions) % 10, total, None)

    # equal totals: the most powerful potions win; still equal: the victory is shared
    st._final = [score(100, 80), score(100, 90), score(100, 90), score(99, 99)]
    assert st.ranking() == [3, 1, 1, 4]
    assert st.winners() == [1, 2] and st.returns() == [0.0, 0.5, 0.5, 0.0]


def test_renderer_shows_the_square_hand_centre_and_scores():
    st = new(3, seed=2)
    pass_round(st)
    act(st, str(st.legal_actions(0)[0]), seat=0)
    text = SPEC.render(st.view(0))
    assert "round 1/8" in text and "your hand:" in text and "centre:" in text
    assert "DRUI" in text and "potion points so far" in text
    assert "*" in text  # this round's own placement is marked


def test_determinizer_works_from_the_spectator_view_too():
    st = new(2, seed=6)
    act(st, "pass")
    act(st, "pass")
    st.apply(st.legal_actions(1)[0], 1)  # a hidden placement
    public = st.view(None)
    for k in range(4):
        sample = SPEC.determinize(public, random.Random(k))
        assert sample.view(None) == public
        assert sorted(sample.secret) != [] and len(set(sample.secret)) == 2
        assert len(sample.pending[1]) == 1 and sample.squares[1].count() == 2


ENVELOPE = {"game", "seat", "players", "acting", "round", "terminal", "scores"}


def test_the_game_part_of_a_view_holds_only_alarun_data_the_envelope_the_rest():
    st = new(3, seed=5)
    pass_round(st)
    st.apply(st.legal_actions(1)[0], 1)
    for viewer in (0, 1, None):
        assert not set(st._view(viewer)) & ENVELOPE
        v = st.view(viewer)
        assert v["acting"] == [0, 1, 2] and v["round"] == 1 and v["seat"] == viewer
        assert v["players"] == 3 and v["terminal"] is False and v["scores"] == [None] * 3
        assert "to_act" not in v and "current_player" not in v


def _vandalise(value):
    """Change every list and dict inside a view, depth first."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _vandalise(item)
        value["junk"] = ["junk"]
        for key in list(value):
            if key != "junk":
                value[key] = None
    elif isinstance(value, list):
        for item in value:
            _vandalise(item)
        value.append("junk")
        value.reverse()


def test_changing_a_returned_view_deeply_never_changes_the_state():
    st = new(2, seed=3)
    act(st, str(st.legal_actions()[0]))  # a swap: known hands
    pass_round(st)
    st.apply(st.legal_actions(1)[0], 1)  # a hidden placement
    checkpoints = [st.clone()]
    while not st.is_terminal():
        pass_round(st)
        place_all(st)
    checkpoints.append(st)
    for state in checkpoints:
        before = state.to_json()
        for viewer in (0, 1, None):
            _vandalise(state.view(viewer))
        assert state.to_json() == before
        fresh = state.view(0)
        assert "junk" not in fresh and "junk" not in fresh["centre"]
