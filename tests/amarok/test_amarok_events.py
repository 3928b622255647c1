"""The event log: every card taken and where it goes, the claw, the change of season, each
round's result and reason, the deal (hands named per ruling K2) and the end of the game, each
told to every viewer as far as its view lets it know (one gate for secrets)."""

import json
import random

import pytest

from nemeton.engine import get_game, make

from amarok_positions import act, position

SPEC = get_game("amarok")
CONFIGS = [{"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
           {"players": 4, "teams": True}, {"players": 6, "teams": True},
           {"players": 4, "teams": True, "partner_hand": True}]
HANDS = "R5 B7 | R3 B2 | B4 B9"


def _new(state, viewer, since):
    return [{k: v for k, v in e.items() if k != "i"} for e in state.log(viewer, since)]


def _viewers(state):
    return [None, *range(state.n)]


def _after(state, text):
    """The entries (for every viewer) that the action named ``text`` adds."""
    start = state.log_length()
    act(state, text)
    return {v: state.log(v, start) for v in _viewers(state)}


def _random_positions(config, seed, every=3):
    """States met along a seeded random game (copies), one every ``every`` steps."""
    state = make("amarok", seed=seed, **config)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        state.apply(rng.choice(state.legal_actions()))
        step += 1


# ----- the gate ---------------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_gate_same_view_after_two_actions_or_two_draws_means_same_entries(config):
    """Any two legal actions, and the same action under two random draws (the card taken
    unseen, the next round's deal), leave each viewer identical entries wherever they leave
    it an identical view."""
    compared = 0
    for seed in range(3):
        for state in _random_positions(config, seed):
            seat, start = state.current_player, state.log_length()
            outcomes = []
            for a in state.legal_actions():
                for draw in range(2):  # the same action with another random draw
                    twin = state.clone()
                    twin.rng.seed(draw)
                    twin.apply(a, seat)
                    outcomes.append(twin)
            for viewer in _viewers(state):
                told: dict[str, list] = {}  # view after -> the entries it was told
                for twin in outcomes:
                    key, entries = json.dumps(twin.view(viewer), sort_keys=True), twin.log(viewer, start)
                    if key in told:
                        compared += 1
                        assert entries == told[key]
                    else:
                        told[key] = entries
    assert compared > 100


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_gate_resampled_hidden_cards_leave_each_viewer_the_same_entries(config):
    """The same action applied to the real state and to states re-sampled from a viewer's
    view tells that viewer the same thing wherever its view after is the same."""
    compared = 0
    for seed in range(3):
        for state in _random_positions(config, seed, every=3):
            seat = state.current_player
            for viewer in _viewers(state):
                view = json.loads(json.dumps(state.view(viewer)))
                for k in range(2):
                    sample = SPEC.determinize(view, random.Random(100 * seed + k)).record_events(True)
                    for a in sample.legal_actions(seat):
                        if a not in state.legal_actions(seat):
                            continue
                        real, twin = state.clone(), sample.clone()
                        start = real.log_length()
                        real.apply(a, seat)
                        twin.apply(a, seat)
                        if real.view(viewer) == twin.view(viewer):
                            compared += 1
                            assert _new(real, viewer, start) == _new(twin, viewer, 0)
    assert compared > 100


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_gate_a_deal_tells_each_viewer_only_what_its_view_shows(config):
    """Re-deal the cards a viewer cannot see (the determinizer) and record the same deal: the
    viewer's entries are unchanged (the draws of the tests above rarely give equal views)."""
    compared = 0
    for seed in range(4):
        state = make("amarok", seed=seed, **config)
        rng = random.Random(seed)
        while not state.is_terminal():
            if not any(state.front_count):  # a round just dealt
                dealt = [i for i, e in enumerate(state.events) if e.round == state.round
                         and e.kind in ("deal", "hand_dealt")]
                for viewer in _viewers(state):
                    told = _new(state, viewer, dealt[0])[:len(dealt)]
                    for k in range(3):
                        sample = SPEC.determinize(state.view(viewer), random.Random(k)).record_events(True)
                        sample.record_deal()
                        assert _new(sample, viewer, 0) == told
                        compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 30


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_every_recorded_kind_is_declared_and_every_entry_reads_as_a_sentence(config):
    kinds = set()
    for seed in range(6):
        state = make("amarok", seed=seed, **config)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        for viewer in _viewers(state):
            for e in state.log(viewer):
                kinds.add(e["kind"])
                text = e["text"]
                assert text[0].isupper() and text.endswith(".") and "_" not in text, text
                assert ".0 " not in text and not text.endswith(".0."), text  # whole numbers as integers
    assert kinds <= set(SPEC.event_kinds)
    assert {"deal", "hand_dealt", "take", "round_end", "game_end"} <= kinds


# ----- taking a card (K3): public, because it is played face up at once (K2) -------------------
def test_taking_from_own_hand_names_the_card_and_slot_to_every_viewer():
    # seat 0 has two wins: it cannot see its own cards, yet once played the card is public
    state = position(hands=HANDS, river="R1 R7", levels=[2, 0, 0])
    told = _after(state, "take own hand slot 1")
    for viewer, entries in told.items():
        e = entries[0]
        assert (e["kind"], e["seat"], e["source"], e["slot"], e["card"]) == ("take", 0, "own_hand", 1, "B7")
    assert told[0][0]["text"] == "You take B7 (blue 7) from your own hand (slot 1) and play it."
    assert told[1][0]["text"] == "Seat 0 takes B7 (blue 7) from their own hand (slot 1) and plays it."


def test_taking_from_the_river_and_the_deck():
    state = position(hands=HANDS, river="R1 R7", deck_top="B0")
    e = _after(state, "take R7 from the river")[None][0]
    assert (e["source"], e["card"]) == ("river", "R7")
    e = _after(state, "take the top card of the deck")[2][0]
    assert (e["seat"], e["source"], e["card"]) == (1, "deck", "B0")
    assert e["text"] == "Seat 1 takes B0 (blue 0) from the top of the deck and plays it."


def test_taking_a_seen_card_from_another_hand():
    state = position(hands=HANDS, river="R1 R7", levels=[0, 0, 2])
    told = _after(state, "take B9 from seat 2's hand")
    e = told[2][0]
    assert (e["source"], e["player"], e["chosen"], e["card"]) == ("hand", 2, "seen", "B9")
    assert "slot" not in e
    assert e["text"] == "Seat 0 takes B9 (blue 9) from your hand and plays it."


def test_taking_an_unseen_card_names_the_card_drawn_but_not_the_slot():
    """The slot is not told: the taker cannot know it, and once the round is re-dealt nobody's
    view shows it."""
    state = position(hands=HANDS, river="R1 R7", levels=[0, 1, 0])
    told = _after(state, "take an unseen card from seat 1's hand")
    for entries in told.values():
        e = entries[0]
        assert (e["source"], e["player"], e["chosen"], e["card"]) == ("hand", 1, "unseen", "R3")
        assert "slot" not in e
    assert told[0][0]["text"] == ("You take R3 (red 3) from seat 1's hand (drawn at random among the "
                                  "cards you could not see) and play it.")


def test_an_action_is_its_first_event_and_describe_action_is_its_text():
    state = position(hands=HANDS, river="R1 R7")
    for action in state.legal_actions():
        for viewer in _viewers(state):
            twin = state.clone()
            start = twin.log_length()
            twin.apply(action)
            first = twin.log(viewer, start)[0]
            assert first["seat"] == 0 and first["kind"] == "take"
            assert twin.describe_action(0, action, viewer) == first["text"]


# ----- the deal (K2): hands named only to those who see them -----------------------------------
def _deal_of_round_two(levels):
    """Finish round 1 (seat 2 wins under the wolf pack) from ``levels``; the entries of round 2's deal."""
    state = position(hands="- - | - - | B9 -", fronts="R3 B4 | R7 B2 | R10", turn=2, levels=levels,
                     rounds_to_win=9)
    start = state.log_length()
    act(state, "take own hand slot 0")
    return state, {v: [e for e in state.log(v, start) if e["round"] == 2] for v in _viewers(state)}


def _hand_events(entries, player):
    return [e for e in entries if e["kind"] == "hand_dealt" and e["player"] == player]


def test_deal_is_public_and_comes_after_the_previous_rounds_result():
    state, dealt = _deal_of_round_two([0, 0, 0])
    kinds = [e["kind"] for e in state.log(None)]
    assert kinds == ["take", "round_end", "deal"] + ["hand_dealt"] * 4  # seat 2, now level 1: two
    deal = dealt[None][0]
    assert deal["holder"] == 1 and deal["objective"] == "wolf_pack"
    assert deal["river"] == state.to_json()["river"] and deal["deck_size"] == 22 - 8
    assert deal["text"].startswith("Round 2 begins: seat 1 holds the objective card, showing the wolf pack")


def test_level_0_hand_is_named_to_its_owner_only():
    state, dealt = _deal_of_round_two([0, 0, 0])  # seat 0 stays at level 0
    hand = state.to_json()["hands"][0]
    (mine,) = _hand_events(dealt[0], 0)
    assert (mine["facing"], mine["slots"], mine["cards"]) == ("owner", [0, 1], hand)
    for viewer in (None, 1, 2):
        (other,) = _hand_events(dealt[viewer], 0)
        assert "cards" not in other and other["facing"] == "owner"
    assert _hand_events(dealt[1], 0)[0]["text"] == "Seat 0 is dealt 2 cards, facing seat 0."
    assert _hand_events(dealt[1], 0)[0]["parts"] == [{"seat": 0}, " is dealt 2 cards, facing ", {"seat": 0}, "."]


def test_level_1_hand_tells_the_owner_one_card_and_the_others_the_other():
    state, dealt = _deal_of_round_two([0, 0, 0])  # seat 2 wins round 1: level 1
    data = state.to_json()
    seen = data["owner_sees"][2].index(True)
    mine = _hand_events(dealt[2], 2)
    assert [e["facing"] for e in mine] == (["owner", "others"] if seen == 0 else ["others", "owner"])
    owner_event = next(e for e in mine if e["facing"] == "owner")
    assert owner_event["cards"] == [data["hands"][2][seen]] and owner_event["slots"] == [seen]
    assert "cards" not in next(e for e in mine if e["facing"] == "others")
    for viewer in (0, 1):
        theirs = _hand_events(dealt[viewer], 2)
        assert next(e for e in theirs if e["facing"] == "others")["cards"] == [data["hands"][2][1 - seen]]
        assert "cards" not in next(e for e in theirs if e["facing"] == "owner")
    assert all("cards" not in e for e in _hand_events(dealt[None], 2))


def test_level_2_hand_is_named_to_everyone_but_its_owner():
    state, dealt = _deal_of_round_two([2, 0, 0])  # seat 0 keeps level 2
    hand = state.to_json()["hands"][0]
    (mine,) = _hand_events(dealt[0], 0)
    assert mine["facing"] == "others" and "cards" not in mine
    assert mine["text"] == "You are dealt 2 cards facing the other players: you cannot see them."
    for viewer in (1, 2):
        (theirs,) = _hand_events(dealt[viewer], 0)
        assert theirs["cards"] == hand
        assert theirs["text"].endswith(", facing the other players (seat 0 cannot see them).")
    assert "cards" not in _hand_events(dealt[None], 0)[0]


def test_every_card_named_in_a_viewers_log_is_in_its_view_or_was_public():
    """No entry names a hand card the viewer's view hides."""
    for seed in range(5):
        state = make("amarok", players=4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for viewer in _viewers(state):
                view = state.view(viewer)
                hidden = {c for p, row in enumerate(state.to_json()["hands"]) for k, c in enumerate(row)
                          if c is not None and view["hands"][p][k]["card"] is None}
                for e in state.log(viewer):
                    if e["round"] == state.round:
                        named = set(e.get("cards", [])) | {e.get("card")}
                        assert not named & hidden, (viewer, e)
            state.apply(rng.choice(state.legal_actions()))


# ----- card effects ---------------------------------------------------------------------------
def test_claw_event_names_its_target_and_the_revealed_card():
    state = position(hands="B5 B7 | R3 B2 | B4 B9", fronts=" | R7 R1 | R10", river="R0 R4", deck_top="B0")
    told = _after(state, "take own hand slot 0")  # B5: claw
    assert told[1][0]["text"].endswith("; seat 0 now chooses a card for the claw to send to the "
                                       "bottom of the deck.")
    told = _after(state, "claw R7 in front of seat 1")
    e = told[None][0]
    assert (e["kind"], e["seat"], e["target"], e["player"], e["card"]) == ("claw", 0, "front", 1, "R7")
    assert told[1][0]["text"] == ("Seat 0's claw reveals R7 (red 7) from in front of you and puts it at "
                                  "the bottom of the deck; you will play again.")


@pytest.mark.parametrize("target, fields", [
    ("claw the card in seat 2's hand slot 1", {"target": "hand", "player": 2, "slot": 1, "card": "B9"}),
    ("claw R0 in the river", {"target": "river", "card": "R0"}),
    ("claw the top card of the deck", {"target": "deck", "card": "B0"}),
])
def test_claw_reveals_a_hand_river_or_deck_card_to_everyone(target, fields):
    state = position(hands="B5 B7 | R3 B2 | B4 B9", river="R0 R4", deck_top="B0")
    act(state, "take own hand slot 0")
    told = _after(state, target)
    for entries in told.values():
        assert {k: entries[0][k] for k in fields} == fields  # a card no one saw, named to all


def test_change_of_season_is_its_own_event_after_the_take():
    state = position(hands="R4 B7 | B6 B2 | B4 B9", river="R1 R7")
    told = _after(state, "take own hand slot 0")
    assert [e["kind"] for e in told[None]] == ["take", "season"]
    season = told[2][1]
    assert season["seat"] is None and season["player"] == 0 and season["objective"] == "lone_wolf"
    assert season["text"] == ("Seat 0's change of season flips the objective card: now the lone wolf "
                              "(lowest total wins).")


# ----- each round's result and its reason (K4, K7, K8) ------------------------------------------
def _round_end(entries):
    return next(e for e in entries if e["kind"] == "round_end")


def test_round_result_by_mating():
    state = position(hands="R5 B7 | B3 B2 | B4 B9", fronts="R1 | R0 | ", river="R3 R7", turn=1)
    told = _after(state, "take own hand slot 0")  # B3: a second heart
    e = _round_end(told[None])
    assert (e["reason"], e["player"], e["winners"], e["levels"]) == ("mating", 1, [1], [0, 1, 0])
    assert e["round"] == 1 and e["fronts"] == [["R1"], ["R0", "B3"], []]
    assert _round_end(told[1])["text"] == ("You put a second heart in front: mating ends round 1 at once; "
                                           "you win it and now have 1 round win.")


def test_round_result_by_totals_lists_each_seats_total_and_the_traps():
    state = position(hands="- - | - - | B9 -", fronts="R3 B1 | R5 B2 | R10", turn=2, objective="lone_wolf")
    e = _round_end(_after(state, "take own hand slot 0")[0])
    assert (e["reason"], e["objective"], e["totals"], e["trapped"]) == ("totals", "lone_wolf", [4, 7, 19], [0])
    assert (e["winners"], e["levels"]) == ([1], [0, 1, 0])
    assert e["text"] == ("Round 1 ends under the lone wolf (lowest total wins): totals 4 for you (trapped), "
                         "7 for seat 1, 19 for seat 2; seat 1 wins the round and now has 1 round win.")


def test_round_result_when_everyone_is_trapped():
    deck = "".join(f'[[cards]]\nid = "T{i}"\nvalue = {i}\nsymbol = "trap"\n' for i in range(3))
    deck += "".join(f'[[cards]]\nid = "P{i}"\nvalue = {i}\n' for i in range(10))
    state = position(deck=deck, hands="- - | - - | P9 -", fronts="T0 P1 | T1 P2 | T2", turn=2)
    e = _round_end(_after(state, "take own hand slot 0")[None])
    assert (e["reason"], e["winners"], e["trapped"]) == ("all_trapped", [], [0, 1, 2])
    assert e["text"].endswith("; every player is trapped, so nobody wins the round.")


def test_tied_winners_share_the_round_and_the_game():
    state = position(hands="- - | - - | B9 -", fronts="R3 B4 | R5 B2 | R10", turn=2,
                     levels=[2, 2, 1], objective="lone_wolf")
    told = _after(state, "take own hand slot 0")
    assert [e["kind"] for e in told[None]] == ["take", "round_end", "game_end"]  # no deal after the end
    assert _round_end(told[None])["text"].endswith("; seat 0 and seat 1 share the round and now have 3 "
                                                   "and 3 round wins.")
    end = told[0][-1]
    assert end["winners"] == [0, 1] and end["levels"] == [3, 3, 1]
    assert end["text"] == "Game over: you and seat 1 share the victory with 3 round wins each."


# ----- team mode names the teams ----------------------------------------------------------------
def test_team_mode_names_the_teams_and_their_totals():
    # team 0 = seats 0 and 2, team 1 = seats 1 and 3
    state = position(4, teams=True, hands="- - | - - | - - | B9 -", fronts="R10 B2 | R3 B4 | R5 B7 | R7",
                     turn=3, levels=[2, 2, 2, 2])
    told = _after(state, "take own hand slot 0")
    e = _round_end(told[None])
    assert e["team_totals"] == [24, 23] and e["totals"] == [12, 7, 12, 16] and e["winners"] == [0, 2]
    assert e["text"] == ("Round 1 ends under the wolf pack (highest total wins): team totals 24 for seat 0 "
                         "and seat 2, 23 for seat 1 and seat 3; the team of seat 0 and seat 2 wins the round "
                         "and now has 3 round wins.")
    assert e["parts"][:2] == ["Round 1 ends under the wolf pack (highest total wins): team totals 24 for ",
                              {"seat": 0}]
    assert _round_end(told[2])["text"].endswith("23 for seat 1 and seat 3; your team (you and seat 0) wins "
                                                 "the round and now has 3 round wins.")
    assert told[1][-1]["text"] == "Game over: the team of seat 0 and seat 2 wins the game with 3 round wins."
    assert told[1][-1]["parts"] == ["Game over: the team of ", {"seat": 0}, " and ", {"seat": 2},
                                    " wins the game with 3 round wins."]
    assert told[0][-1]["text"] == "Game over: your team (you and seat 2) wins the game with 3 round wins."


def test_team_mode_mating_and_a_teams_wolf_trap():
    state = position(4, teams=True, hands="R6 B7 | R5 B2 | B4 B9 | R1 R7", fronts="R0 | R3 | R9 | R10")
    e = _round_end(_after(state, "take own hand slot 0")[3])
    assert e["text"] == ("Seat 0 puts a second heart in front: mating ends round 1 at once; the team of "
                         "seat 0 and seat 2 wins it and now has 1 round win.")
    trap = position(4, teams=True, hands="B1 B7 | R5 B2 | B4 B9 | R3 R7")
    assert _after(trap, "take own hand slot 0")[2][0]["text"].endswith(
        "; with a wolf trap in front of seat 0, your team (you and seat 0) cannot win this round.")


# ----- the log travels with the state ------------------------------------------------------------
def test_state_json_carries_the_events():
    state = make("amarok", players=3, seed=8)
    rng = random.Random(8)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    data = json.loads(json.dumps(state.to_json()))
    copy = SPEC.state_from_json(data)
    for viewer in _viewers(state):
        assert copy.log(viewer) == state.log(viewer)
    quiet = state.clone().record_events(False)
    assert quiet.to_json()["events"] is None and SPEC.state_from_json(quiet.to_json()).events is None
