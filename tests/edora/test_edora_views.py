"""Views, the determinizer, the rulebook variants V1-V4 (§7), options and the renderer."""

import json
import random

import pytest

from nemeton.engine import InvalidOptionsError, get_game, make
from nemeton.games.edora.positions import fresh, legal_texts, play
from nemeton.games.edora.steps import ARRANGE_HERBS, CHOOSE_START, KEEP_TABLET

SPEC = get_game("edora")


def test_views_show_the_table_but_not_the_deck_order():
    st = make("edora", players=3, seed=4)
    view = st.view(1)
    assert "deck" not in view and view["deck_size"] == len(st.deck)
    assert view["seat"] == 1 and view["acting"] == [st.current_player]
    assert view["boards"][0]["overview"] and view["boards"][2]["herbs"][0] is not None
    json.dumps(view)


def test_determinizer_reshuffles_the_deck_and_keeps_the_view():
    st = fresh(2)
    view = st.view(0)
    decks = set()
    for k in range(5):
        sample = SPEC.determinize(json.loads(json.dumps(view)), random.Random(k))
        assert sample.view(0) == view
        decks.add(tuple(sample.deck))
        assert sorted(sample.deck) == sorted(st.deck)
    assert len(decks) > 1


def test_legal_actions_from_the_view_match_the_state():
    st = fresh(2)
    assert SPEC.legal_actions_from_view(st.view(0)) == st.legal_actions(0)


def test_v1_tablet_draft_keeps_one_of_three_and_puts_two_under_the_deck():
    st = make("edora", players=2, seed=2, tablet_draft=True)
    assert st.stack[-1][0] == KEEP_TABLET and all(not t for t in st.tablets)
    p = st.current_player
    hand = list(st.draft_hand)
    assert len(hand) == 3
    assert st.view(p)["draft_hand"] is not None and st.view(1 - p)["draft_hand"] is None
    other_view = st.view(1 - p)
    sample = SPEC.determinize(other_view, random.Random(1))
    assert sample.view(1 - p) == other_view
    a = st.legal_actions()[0]
    st.apply(a)
    assert len(st.tablets[p]) == 1
    kept = hand.index(st.tablets[p][0])
    rest = hand[:kept] + hand[kept + 1:]
    assert sorted(st.deck[:2]) == sorted(rest) and st.deck_marks[:2] == [p, p]
    known = st.view(p)["deck_known"]
    assert [k for k, _ in known] == [0, 1]
    assert st.view(1 - p)["deck_known"] == []


def test_v2_everybody_copies_the_start_players_herb_layout():
    st = make("edora", players=3, seed=5, shared_herbs=True)
    layouts = {tuple(st.herb_at[12 * p:12 * p + 12]) for p in range(3)}
    assert len(layouts) == 1


def test_v3_players_arrange_their_herbs_simultaneously_face_down():
    st = make("edora", players=2, seed=6, arranged_herbs=True)
    assert st.stack[-1][0] == ARRANGE_HERBS and st.acting() == (0, 1)
    st.apply(st.legal_actions(1)[3], seat=1)
    assert st.view(0)["boards"][1]["herbs"] == [None] * 12
    assert st.view(1)["boards"][1]["herbs"][0] is not None
    sample = SPEC.determinize(st.view(0), random.Random(3))
    assert sample.view(0) == st.view(0)
    for seat in (0, 1):
        while seat in st.acting():
            st.apply(st.legal_actions(seat)[-1], seat=seat)
    assert st.stack[-1][0] == CHOOSE_START
    assert sorted(st.herb_at[12:24]) == list(range(12))
    assert st.view(0)["boards"][1]["herbs"][0] is not None


def test_v4_everybody_copies_the_start_players_nine_overview_dice():
    st = make("edora", players=4, seed=8, shared_dice=True)
    assert len({tuple(st.overview[7 * p:7 * p + 7]) for p in range(4)}) == 1


def test_v2_and_v3_exclude_each_other():
    with pytest.raises(InvalidOptionsError, match="shared_herbs .* arranged_herbs"):
        make("edora", players=2, shared_herbs=True, arranged_herbs=True)


def test_fire_pit_scoring_names_its_allowed_values():
    with pytest.raises(InvalidOptionsError, match="rulebook, summary"):
        make("edora", players=2, fire_pit_scoring="house")


def test_renderer_shows_the_map_and_every_players_boards():
    st = fresh(3)
    text = SPEC.render(st.view(0))
    for word in ("S01", "F16", "seat 0 [A] (you):", "seat 2 [C]:", "reserve", "amulet", "herbs", "oracle"):
        assert word in text
    assert "*A" in text


def test_actions_read_as_sentences():
    st = fresh(2)
    assert "move to S02 (cost 1)" in legal_texts(st)
    play(st, "move to S02 (cost 1)")
    assert "place die 4 on S02 space 2 (FD)" in legal_texts(st)


def test_defaults_follow_the_rulebook_e1():
    opts = SPEC.options(players=3)
    assert (opts.revisit_sanctuaries, opts.fire_pit_scoring, opts.tablet_draft, opts.shared_herbs,
            opts.arranged_herbs, opts.shared_dice, opts.board, opts.safety_valve) == \
        (False, "rulebook", False, False, False, False, None, False)


ENVELOPE = ("game", "seat", "players", "acting", "round", "terminal", "scores")


def _finished_game(players=2, seed=3):
    st = make("edora", players=players, seed=seed, safety_valve=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_the_view_body_holds_only_edoras_own_data_after_the_engine_envelope():
    st = make("edora", players=3, seed=4)
    view = st.view(2)
    assert list(view)[:7] == list(ENVELOPE)
    assert view["players"] == 3 and view["round"] == 1 and view["terminal"] is False
    assert len(view["boards"]) == 3 and view["boards"][2]["provisions"] == 15
    for gone in ("player", "over", "to_act", "current_player"):
        assert gone not in view


def test_prestige_is_public_during_play_and_the_final_totals_replace_it_at_the_end():
    st = make("edora", players=2, seed=1, safety_valve=True)
    rng = random.Random(1)
    for _ in range(40):
        st.apply(rng.choice(st.legal_actions()))
    assert st.view(None)["scores"] == [float(p) for p in st.prestige] == st.view(0)["scores"]
    done = _finished_game()
    assert done.view(1)["scores"] == [float(f["total"]) for f in done.final]
    assert done.view(1)["scores"] != [float(p) for p in done.prestige]


def _mutate_everything(value):
    if isinstance(value, dict):
        for key in list(value):
            value[key] = _mutate_everything(value[key])
        value["junk"] = 1
        return value
    if isinstance(value, list):
        for k in range(len(value)):
            value[k] = _mutate_everything(value[k])
        value.append("junk")
        return value
    return "junk"


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_returned_view_shares_nothing_with_the_state(seat):
    for st in (make("edora", players=2, seed=5, tablet_draft=True), _finished_game()):
        before = json.dumps(st.to_json(), sort_keys=True)
        view = st.view(seat)
        _mutate_everything(view)
        assert json.dumps(st.to_json(), sort_keys=True) == before
        assert st.view(seat) != view


# ----- reading back a state or a view checks it ------------------------------------------------

def _saved(seed=2, steps=30):
    st = make("edora", players=2, seed=seed, safety_valve=True)
    rng = random.Random(seed)
    for _ in range(steps):
        st.apply(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("change, message", [
    (lambda d: d["boards"][0].update(reserve=[7]), r"boards\[0\].reserve\[0\]"),
    (lambda d: d["boards"][0]["amulet"].pop(), r"boards\[0\].amulet"),
    (lambda d: d["deck"].append(d["deck"][0]), "deck_marks|tablets"),
    (lambda d: d["oracle_slots"].__setitem__(0, d["oracle_slots"][1]) if d["oracle_slots"][1] else None, "tablets"),
    (lambda d: d["stack"].append([104, 0, 0]), "a decision must be on top"),
    (lambda d: d["stack"].insert(0, [105, 0, 0]), "only the bottom step"),
    (lambda d: d["boards"][1].update(placed=0), "placed"),
    (lambda d: d["sanctuaries"][0]["dice"].append(None), r"sanctuaries\[0\].dice"),
    (lambda d: d["events"][0].update(kind="teleport"), r"events\[0\].kind"),
    (lambda d: d.update(options={"players": 2, "board": 5}), "board"),
])
def test_a_malformed_or_inconsistent_state_is_refused_with_a_record_error(change, message):
    from nemeton.engine import RecordError
    data = json.loads(json.dumps(_saved().to_json()))
    change(data)
    with pytest.raises((RecordError, InvalidOptionsError), match=message):
        SPEC.state_from_json(data)


def test_a_view_whose_parts_disagree_is_refused():
    from nemeton.engine import RecordError
    view = _saved().view(0)
    broken = json.loads(json.dumps(view))
    broken["deck_size"] += 1                  # one tablet too many in the game
    with pytest.raises(RecordError):
        SPEC.determinize(broken, random.Random(0))
    broken = json.loads(json.dumps(view))
    broken["boards"][1]["herbs"][0] = None    # a hole in a layout that is face up
    with pytest.raises(RecordError, match="herbs"):
        SPEC.legal_actions_from_view(broken)
