"""The event log: everything that happens is told, each viewer learns only what its view shows,
and the prestige track never moves without an event saying why."""

import json
import random

import pytest

from nemeton.engine import get_game, make
from nemeton.games.edora.components import HERB_NAMES
from nemeton.games.edora.events import EVENT_KINDS
from nemeton.games.edora.positions import fresh, play, put_dice, set_player

SPEC = get_game("edora")

CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "tablet_draft": True, "arranged_herbs": True, "shared_dice": True},
    {"players": 2, "revisit_sanctuaries": True, "fire_pit_scoring": "summary", "shared_herbs": True},
]


def _random_game(cfg, seed, on_step=None):
    st = make("edora", seed=seed, safety_valve=True, **cfg)
    rng = random.Random(seed)
    step = 0
    while not st.is_terminal():
        seat = rng.choice(st.acting())
        legal = st.legal_actions(seat)
        if on_step:
            on_step(st, seat, legal, step)
        st.apply(rng.choice(legal), seat)
        step += 1
    if on_step:
        on_step(st, None, [], step)
    return st


def _prestige_told(st):
    """Prestige per seat carried by the log: each entry's ``prestige`` goes to its ``player``
    (an automatic effect) or else to its ``seat`` (the actor)."""
    told = [0] * st.n
    for e in st.log(None):
        if e.get("prestige"):
            told[e["player"] if "player" in e else e["seat"]] += e["prestige"]
    return told


# ----- V3: a herb laid face down is the arranger's secret ------------------------------------

def test_v3_the_herb_a_seat_lays_face_down_is_secret_to_that_seat_until_the_reveal():
    st = make("edora", players=2, seed=0, arranged_herbs=True)
    first, second = st.legal_actions()[:2]
    assert first.herb != second.herb and first.circle == second.circle
    after = []
    for action in (first, second):
        twin = st.clone()
        twin.apply(action)
        after.append(twin)
    assert after[0].view(1) == after[1].view(1)
    assert after[0].describe_action(0, first, 1) == after[1].describe_action(0, second, 1)
    told = after[0].describe_action(0, first, 1)
    assert told == "Seat 0 lays a herb face down in herb circle 1."
    assert not any(name in told for name in HERB_NAMES.values())
    start = st.log_length()
    assert after[0].log(1, start) == after[1].log(1, start)
    assert after[0].log(None, start) == after[1].log(None, start)
    mine = after[0].log(0, start)
    assert mine[0]["herb"] == first.herb and "provisions herb" in mine[0]["text"]
    assert "herb" not in after[0].log(1, start)[0]


def test_v3_layouts_are_told_to_everybody_once_all_are_arranged():
    st = make("edora", players=2, seed=0, arranged_herbs=True)
    while st.stack[-1][0] == 2:      # ARRANGE_HERBS
        seat = st.acting()[0]
        st.apply(st.legal_actions(seat)[0], seat)
    reveal = [e for e in st.log(1) if e["kind"] == "herbs_revealed"]
    assert len(reveal) == 1 and reveal[0]["layouts"][0] == st.view(1)["boards"][0]["herbs"]


def test_v1_draft_hands_and_the_tablets_put_under_the_deck_are_the_drafters_secret():
    st = make("edora", players=2, seed=2, tablet_draft=True)
    p = st.current_player
    draw = st.log(p)[-1]
    assert draw["kind"] == "draft_draw" and sorted(draw["tablets"]) == sorted(st.view(p)["draft_hand"])
    assert "tablets" not in st.log(1 - p)[-1] and "tablets" not in st.log(None)[-1]
    keep = st.legal_actions()[0]
    start = st.log_length()
    st.apply(keep)
    mine, theirs = st.log(p, start)[0], st.log(1 - p, start)[0]
    assert mine["kind"] == theirs["kind"] == "keep_tablet" and mine["tablet"] == theirs["tablet"]
    assert len(mine["under_tablets"]) == 2 and "under_tablets" not in theirs
    assert "under the deck" in theirs["text"] and mine["under_tablets"][0] in mine["text"]


# ----- the gate ------------------------------------------------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_the_same_view_after_two_different_actions_means_the_same_new_entries(cfg):
    checked = {"pairs": 0, "same": 0}

    def check(st, seat, legal, step):
        if seat is None or step % 5:
            return
        start = st.log_length()
        outcomes = []
        for action in legal:
            twin = st.clone()
            twin.apply(action, seat)
            outcomes.append((action, twin, {v: twin.view(v) for v in [None, *range(st.n)]}))
        for i in range(len(outcomes)):
            for j in range(i + 1, len(outcomes)):
                a, ta, va = outcomes[i]
                b, tb, vb = outcomes[j]
                for viewer in va:
                    checked["pairs"] += 1
                    if va[viewer] == vb[viewer]:
                        checked["same"] += 1
                        assert ta.log(viewer, start) == tb.log(viewer, start), (viewer, a, b)

    for seed in range(2):
        _random_game(cfg, seed, check)
    assert checked["pairs"] > 0
    if cfg.get("arranged_herbs"):
        assert checked["same"] > 0, "the face-down herbs give identical views to compare"


# ----- the prestige track is explained --------------------------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_the_prestige_carried_by_the_events_equals_the_prestige_track_at_every_step(cfg):
    def check(st, seat, legal, step):
        assert _prestige_told(st) == st.prestige, f"step {step}"

    for seed in range(3):
        _random_game(cfg, seed, check)


def test_every_prestige_source_of_a_scripted_turn_is_an_event():
    st = fresh(2)
    put_dice(st, "S01:A1 S02:A1 S05:B3")          # F02 (VP VP DIE) closes when A reaches S05
    set_player(st, 0, at="S01", provisions=8, reserve=[4], overview=[], herbs=["H_VP"])
    start = st.log_length()
    play(st, "move to S05 (cost 1)", "place die 4 on S05 space 2 (RS)", "place the prestige rune stone")
    kinds = [e["kind"] for e in st.log(1, start)]
    assert kinds[:4] == ["move", "place_die", "competition", "rune_stone"]
    assert st.log(1, start)[3]["prestige"] == 8
    pit = next(e for e in st.log(1, start) if e["kind"] == "fire_pit")
    assert pit["pit"] == "F02" and pit["rewards"] == ["VP", "VP", "DIE"] and pit["prestige"] == 10
    assert "+10 prestige in all" in pit["text"]
    missing = next(e for e in st.log(1, start) if e["kind"] == "overview_dice")
    assert missing["missing"] == 1 and missing["prestige"] == 2


# ----- actions first, then their effects ----------------------------------------------------

def test_each_action_records_itself_first_with_its_seat_then_its_automatic_effects():
    def check(st, seat, legal, step):
        if seat is None:
            return
        twin = st.clone()
        start = twin.log_length()
        twin.apply(legal[step % len(legal)], seat)
        new = twin.log(None, start)
        assert new and new[0]["seat"] == seat
        assert all(e["seat"] is None for e in new[1:]), "effects are automatic (seat None)"
        assert all(e["kind"] in EVENT_KINDS for e in new)

    _random_game({"players": 3, "tablet_draft": True, "arranged_herbs": True}, 4, check)


def test_the_game_end_tells_each_final_step_every_total_and_the_winner():
    st = _random_game({"players": 3}, 7)
    log = st.log(0)
    kinds = [e["kind"] for e in log]
    end = kinds.index("round_end", len(kinds) - 30)
    assert log[end]["game_over"] and kinds[-1] == "game_won"
    for step in ("score_leftovers", "score_sickle", "score_tablets", "score_amulet", "score_sanctuaries"):
        assert kinds.count(step) == 3
    for p in range(3):
        points = sum(e["points"] for e in log if e.get("player") == p and e["kind"].startswith("score_"))
        total = next(e for e in log if e["kind"] == "final_score" and e["player"] == p)
        assert total["total"] == st.final[p]["total"] == total["prestige_track"] + points
    assert log[-1]["winners"] == st.winners() and "win" in log[-1]["text"]


def test_a_shared_best_total_is_told_with_the_tie_break():
    st = fresh(2)
    st.prestige[:] = [20, 20]
    st.knowledge[:] = [3, 1]
    st.ending = True
    st.player = 1
    st.stack = [(105, 0, 0)]                   # END_TURN: the round's last player ends the game
    st._advance()
    log = st.log(None)
    tie = next(e for e in log if e["kind"] == "tie_break")
    assert tie["players"] == [0, 1] and "behind on the knowledge track" in tie["text"]
    assert log[-1]["winners"] == [1] and log[-1]["text"].startswith("Seat 1 wins")


def test_an_emergency_turn_says_so_and_whether_it_was_forced():
    st = fresh(2)
    set_player(st, 0, at="S01", reserve=[])
    start = st.log_length()
    play(st, "emergency turn (+6 provisions, 1 die)")
    entry = st.log(0, start)[0]
    assert entry["kind"] == "emergency" and entry["forced"]
    assert entry["text"].startswith("You take an emergency turn (no normal turn was possible)")


def test_sentences_name_seats_for_the_viewer():
    st = fresh(2)
    start = st.log_length()
    play(st, "move to S02 (cost 1)")
    assert st.log(0, start)[0]["text"] == "You move from S01 to S02 for 1 provision."
    assert st.log(1, start)[0]["text"] == "Seat 0 moves from S01 to S02 for 1 provision."
    assert st.log(None, start)[0]["text"] == st.log(1, start)[0]["text"]


# ----- saved and restored ---------------------------------------------------------------------

def test_state_json_carries_the_event_log():
    st = make("edora", players=3, seed=9, safety_valve=True, tablet_draft=True)
    rng = random.Random(9)
    for _ in range(80):
        seat = st.acting()[0]
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    copy = SPEC.state_from_json(json.loads(json.dumps(st.to_json())))
    for viewer in (None, 0, 1, 2):
        assert copy.log(viewer) == st.log(viewer)
    assert copy.to_json() == st.to_json()
    quiet = st.clone().record_events(False)
    assert SPEC.state_from_json(json.loads(json.dumps(quiet.to_json()))).events is None


@pytest.mark.parametrize("cfg", CONFIGS[3:4] + CONFIGS[:1], ids=["variants", "players=2"])
def test_other_hidden_tablets_and_herbs_tell_a_viewer_the_same_events(cfg):
    """A chance outcome the viewer cannot see (the deck order, a draft hand, face-down herbs)
    re-sampled from its view: the same action tells it the same events while its view agrees."""
    compared = {"steps": 0}

    def check(st, seat, legal, step):
        if seat is None or step % 3:
            return
        action = legal[step % len(legal)]
        for viewer in [None, *range(st.n)]:
            sample = SPEC.determinize(json.loads(json.dumps(st.view(viewer))), random.Random(step))
            sample.record_events(True)
            if action not in sample.legal_actions(seat):
                continue            # a hidden draft hand offers other tablets
            real = st.clone()
            start = real.log_length()
            real.apply(action, seat)
            sample.apply(action, seat)
            if real.view(viewer) == sample.view(viewer):
                compared["steps"] += 1
                strip = [{k: v for k, v in e.items() if k != "i"} for e in real.log(viewer, start)]
                assert strip == [{k: v for k, v in e.items() if k != "i"} for e in sample.log(viewer)]

    _random_game(cfg, 3, check)
    assert compared["steps"] > 0
