"""The event log: what each seat is told of every action and automatic effect, and that it
never tells a seat more than its view shows (hidden placements, dealt hands, secret colours)."""

from __future__ import annotations

import json
import random

from nemeton.engine import get_game
from nemeton.games.alarun.actions import PLACES
from nemeton.games.alarun.components import CARD_NAMES, COLOURS, DRUID, card_name
from nemeton.games.alarun.events import EVENT_KINDS, card_words, event_message
from nemeton.i18n import render_parts


def event_text(entry, viewer):
    """The plain English sentence (seats as \"seat n\") the log gives for the entry."""
    return render_parts(event_message(entry, viewer), "en")[0]
from nemeton.games.alarun.rules import AlarunState
from nemeton.games.alarun.scoring import ScoreBreakdown
from nemeton.games.alarun.square import CELL_XY, MagicSquare, cell_index

from alarun_helpers import act, cards, grid, new, pass_round, place_all

SPEC = get_game("alarun")


def since(st, viewer, start):
    return st.log(viewer, since=start)


def kinds(entries):
    return [e["kind"] for e in entries]


def play_randomly(st, rng):
    while not st.is_terminal():
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    return st


# ----- the action phase ----------------------------------------------------------------------
def test_a_swap_tells_everyone_the_card_given_and_the_card_taken():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    start = st.log_length()
    act(st, "swap mandrake:red <-> myrrh:blue")
    for viewer in (0, 1, 2, None):
        [entry] = since(st, viewer, start)
        assert entry["kind"] == "swap" and entry["seat"] == 0
        assert entry["give"] == "mandrake:red" and entry["take"] == "myrrh:blue"
    assert since(st, 1, start)[0]["text"] == ("Seat 0 swaps: gives Mandrake (red) to the centre "
                                              "and takes Myrrh (blue).")
    assert since(st, 0, start)[0]["text"] == "You swap: give Mandrake (red) to the centre and take Myrrh (blue)."


def test_a_pass_is_told_and_the_first_one_takes_alarun_with_one_more_action_for_each_other_player_a4():
    st = new(4)
    act(st, str(st.legal_actions()[0]))  # seat 0 swaps
    start = st.log_length()
    act(st, "pass")  # seat 1 passes first
    entries = since(st, 3, start)
    assert kinds(entries) == ["pass", "alarun_taken"]
    assert entries[0]["seat"] == 1 and entries[0]["text"] == "Seat 1 passes."
    taken = entries[1]
    assert taken["seat"] is None and taken["player"] == 1 and taken["one_more"] == [2, 3, 0]
    assert taken["text"] == ("Seat 1 passed first and takes Alarún; seat 2, you and seat 0 have one more "
                             "action each, then the round's placement begins.")
    # a later pass takes nothing: only the first pass holds Alarún
    start = st.log_length()
    act(st, "pass")
    assert kinds(since(st, None, start)) == ["pass"]
    act(st, "pass")
    start = st.log_length()
    act(st, "pass")  # seat 0's one more action: the round's placement begins
    assert kinds(since(st, None, start)) == ["pass", "placement_started"]
    assert st.phase == 1


def test_swap_all_and_pass_shows_the_whole_hand_given_and_the_centre_taken():
    st = new(3)
    st.hands[0] = sorted(cards("MA-r DE-b FM-y"))
    st.centre = cards("MY-b CA-g PF-o")
    start = st.log_length()
    act(st, "swap all and pass")
    entries = since(st, None, start)
    assert kinds(entries) == ["swap_all_and_pass", "alarun_taken"]
    assert entries[0]["gave"] == [CARD_NAMES[c] for c in sorted(cards("MA-r DE-b FM-y"))]
    assert sorted(entries[0]["took"]) == sorted(["myrrh:blue", "calendula:green", "phoenix_feathers:orange"])
    assert entries[0]["text"].startswith("Seat 0 swaps all and passes: gives ")


def test_a_two_player_flip_tells_the_cards_discarded_and_the_cards_turned_up():
    st = new(2, seed=4)
    centre, face_down = [CARD_NAMES[c] for c in st.centre], [CARD_NAMES[c] for c in st.face_down]
    start = st.log_length()
    act(st, str(st.legal_actions()[-1]))  # the flip comes last
    [entry] = since(st, 1, start)
    assert entry["kind"] == "flip" and entry["seat"] == 0
    assert entry["discarded"] == centre and entry["turned_up"] == face_down
    assert entry["text"] == (f"Seat 0 flips: discards {', '.join(map(card_words, centre))} from the centre "
                             f"and turns up {', '.join(map(card_words, face_down))}.")


def test_the_action_cap_is_told_when_only_pass_is_left_a9():
    st = new(3, action_cap=2)
    act(st, str(st.legal_actions()[0]))
    start = st.log_length()
    act(st, str(st.legal_actions()[0]))
    assert kinds(since(st, 0, start)) == ["swap", "action_cap_reached"]
    assert since(st, 0, start)[1]["cap"] == 2
    assert [str(a) for a in st.legal_actions()] == ["pass"]


# ----- placement: hidden, then revealed --------------------------------------------------------
def test_a_placement_is_told_in_full_only_to_the_placer():
    st = new(3, seed=5)
    pass_round(st)
    action = st.legal_actions(1)[0]
    start = st.log_length()
    st.apply(action, 1)
    mine = since(st, 1, start)
    assert kinds(mine) == ["place"] and mine[0]["seat"] == 1
    assert (mine[0]["card"], mine[0]["x"], mine[0]["y"]) == (action.card, action.x, action.y)
    for other in (0, 2, None):  # another seat and the spectator: that a card was placed, no card, no cell
        [entry] = since(st, other, start)
        assert entry["placed"] == 1 and not {"card", "x", "y"} & set(entry)
        assert entry["text"] == "Seat 1 places a card (1 of 3; hidden until everyone has placed)."


def test_placements_are_revealed_to_everyone_once_all_have_placed():
    st = new(3, seed=5)
    pass_round(st)
    rng = random.Random(2)
    start = st.log_length()
    while st.phase == 1:
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    entries = since(st, None, start)
    revealed = [e for e in entries if e["kind"] == "placements_revealed"]
    assert [e["player"] for e in revealed] == [0, 1, 2]
    first_of_round_2 = next(k for k, e in enumerate(entries) if e["round"] == 2)
    assert all(k < first_of_round_2 for k, e in enumerate(entries) if e["kind"] == "placements_revealed")
    for e in revealed:
        square = st.squares[e["player"]]
        shown = [(c["card"], c["x"], c["y"]) for c in e["cards"]]
        assert shown == sorted(((CARD_NAMES[card], *CELL_XY[i]) for i, card in square.placed()),
                               key=lambda t: (t[2], t[1]))  # by cell, row by row: not in the order placed
        assert len(shown) == 3


def test_two_different_placements_of_seat_0_tell_the_others_the_same():
    """The gate: whatever seat 0 places where, seat 1's and the spectator's views stay the
    same, and so do their new log entries (text included)."""
    st = new(3, seed=8)
    pass_round(st)
    legal = st.legal_actions(0)
    a, b = legal[0], legal[-1]
    assert (a.card, a.x, a.y) != (b.card, b.x, b.y) and a.card != b.card
    start = st.log_length()
    after = []
    for action in (a, b):
        twin = st.clone()
        twin.apply(action, 0)
        after.append(twin)
    for viewer in (1, 2, None):
        assert after[0].view(viewer) == after[1].view(viewer)
        assert since(after[0], viewer, start) == since(after[1], viewer, start)
    assert since(after[0], 0, start) != since(after[1], 0, start)  # the placer knows which


# ----- between rounds ------------------------------------------------------------------------
def test_between_rounds_the_centre_hands_and_start_player_are_told():
    st = new(2, seed=3)
    act(st, "pass")  # seat 0 passes first: it starts round 2
    act(st, "pass")
    centre, face_down = [CARD_NAMES[c] for c in st.centre], [CARD_NAMES[c] for c in st.face_down]
    start = st.log_length()
    place_all(st)
    entries = since(st, 1, start)
    tail = kinds(entries)[kinds(entries).index("round_started"):]
    assert tail == ["round_started", "centre_discarded", "centre_dealt", "hand_dealt", "hand_dealt"]
    by_kind = {e["kind"]: e for e in entries}
    assert by_kind["round_started"]["start_player"] == 0 and by_kind["round_started"]["round"] == 2
    assert by_kind["round_started"]["text"] == ("Round 2 of 8 begins: seat 0 starts, as the first to pass "
                                                "last round, and puts Alarún back on the stack.")
    assert by_kind["centre_discarded"]["cards"] == centre and by_kind["centre_discarded"]["face_down"] == face_down
    assert by_kind["centre_dealt"]["cards"] == [CARD_NAMES[c] for c in st.centre]
    assert by_kind["centre_dealt"]["face_down"] == 3
    dealt = [e for e in entries if e["kind"] == "hand_dealt"]
    assert dealt[0]["player"] == 0 and "cards" not in dealt[0] and dealt[0]["count"] == 3
    assert dealt[1]["cards"] == [CARD_NAMES[c] for c in st.hands[1]]  # seat 1 sees its own cards
    assert dealt[0]["text"] == "Seat 0 takes 3 cards from the stack."
    assert "cards" not in since(st, None, start)[entries.index(dealt[1])]


def test_four_players_are_told_the_centre_stays():
    st = new(4, seed=3)
    pass_round(st)
    centre = [CARD_NAMES[c] for c in st.centre]
    start = st.log_length()
    place_all(st)
    entries = since(st, None, start)
    assert "centre_discarded" not in kinds(entries) and "centre_dealt" not in kinds(entries)
    [kept] = [e for e in entries if e["kind"] == "centre_kept"]
    assert kept["cards"] == centre and kept["text"] == f"The centre cards {', '.join(map(card_words, centre))} stay for round 2."


def test_the_setup_deals_are_told_each_hand_and_colour_to_its_owner_only():
    st = new(3, seed=1)
    entries = st.log(2)
    assert kinds(entries) == ["round_started", "centre_dealt", *["hand_dealt"] * 3, *["colour_dealt"] * 3]
    colours = [e for e in entries if e["kind"] == "colour_dealt"]
    assert [("colour" in e) for e in colours] == [False, False, True]
    assert colours[2]["colour"] == COLOURS[st.secret[2]]
    assert colours[2]["text"] == f"You take the colour card {COLOURS[st.secret[2]]} from Alarún; it stays secret until the end."
    spectator = st.log(None)
    assert not any("colour" in e or "cards" in e for e in spectator if e["kind"] in ("colour_dealt", "hand_dealt"))


# ----- the end -------------------------------------------------------------------------------
def final_sheet(st, player):
    return [e for e in st.log(None) if e["round"] == 8 and e.get("player") == player
            and e["kind"] in ("druid_value", "potion_scored", "centum_auri_scored", "colour_bonus", "final_score")]


def test_the_final_scoring_events_add_up_to_each_final_score():
    for players in (2, 3, 4):
        st = play_randomly(new(players, seed=players, action_cap=8), random.Random(players))
        for s, b in enumerate(st.breakdowns()):
            sheet = final_sheet(st, s)
            lines = [e for e in sheet if e["kind"] == "potion_scored"]
            assert [e["line"] for e in lines] == list("ABCDEFGHIJ")
            assert [e["points"] for e in lines] == [*b.rows, *b.columns]
            by_kind = {e["kind"]: e for e in sheet}
            assert by_kind["druid_value"]["card"] == card_name(b.druid)
            assert by_kind["colour_bonus"]["colour"] == COLOURS[st.secret[s]]
            total = sum(e["points"] for e in lines) + by_kind["centum_auri_scored"]["points"] \
                + by_kind["colour_bonus"]["points"]
            assert total == by_kind["final_score"]["total"] == st.scores()[s]
        last = st.log(0)[-1]
        assert last["kind"] == "game_won" and last["winners"] == st.winners()


LAUREN = grid("""
    FM-y FM-w FM-p MB-b FM-o
    DE-y DE-w DE-p DRUI DE-r
    CENT MB-w MB-p MB-b MB-r
    CA-y PF-w MA-p MY-b FM-r
    PF-y PF-g PF-p CA-b CA-r
""")


def test_the_rulebook_scoring_example_is_told_line_by_line():
    """Lauren's square (rulebook, "Lauren's Scoring Example"), finished in round 8."""
    st = new(2, seed=0)
    for _ in range(7):
        pass_round(st)
        place_all(st)
    pass_round(st)
    druid_row, druid_column = divmod(LAUREN.index(DRUID), 5)
    cells = [(cell_index(c - druid_column, r - druid_row), LAUREN[r * 5 + c])
             for r in range(5) for c in range(5) if LAUREN[r * 5 + c] != DRUID]
    st.squares[0] = MagicSquare.from_cards(cells[:-3])
    st.hands[0] = sorted(card for _, card in cells[-3:])
    st.secret[0] = COLOURS.index("red")
    for cell, card in cells[-3:]:
        st.apply(PLACES[card][cell], 0)
    place_all(st)
    sheet = final_sheet(st, 0)
    assert sheet[0]["card"] == "dragon_eggs:blue"  # she makes her druid a blue dragon egg
    lines = {e["line"]: e for e in sheet if e["kind"] == "potion_scored"}
    assert [lines[k]["points"] for k in "ABCDE"] == [6, 15, 10, 1, 6]
    assert [lines[k]["points"] for k in "FGHIJ"] == [3, 10, 15, 10, 10]
    potions = {k: (e["strength"], e["by"], e["shared"]) for k, e in lines.items()}
    assert potions == {
        "A": (3, "ingredient", "fungi_magica"),    # the blue one interrupts: the orange one does not count
        "B": (5, "ingredient", "dragon_eggs"),     # the druid as a dragon egg
        "C": (4, "ingredient", "moon_berries"),
        "D": (1, None, None),                      # nothing similar connected
        "E": (3, "ingredient", "phoenix_feathers"),
        "F": (2, "colour", "yellow"),              # the Centum auri interrupts the 4 yellow
        "G": (4, "colour", "white"),
        "H": (5, "colour", "pink"),
        "I": (4, "colour", "blue"),                # the same blue moon berries twice count once
        "J": (4, "colour", "red"),
    }
    assert lines["B"]["text"] == "Seat 0's row B (2nd from the top): a potion of 5 dragon eggs in different colours, 15 points."
    assert lines["H"]["text"] == "Seat 0's column H (3rd from the left): a potion of 5 different pink ingredients, 15 points."
    assert lines["D"]["cards"] == ["calendula:yellow", "phoenix_feathers:white", "mandrake:pink", "myrrh:blue",
                                   "fungi_magica:red"]
    rest = {e["kind"]: e for e in sheet}
    assert rest["centum_auri_scored"]["points"] == 10
    assert (rest["colour_bonus"]["colour"], rest["colour_bonus"]["cards"], rest["colour_bonus"]["points"]) == ("red", 4, 8)
    assert (rest["final_score"]["potions"], rest["final_score"]["total"]) == (86, 104)
    assert st.log(0)[[e["i"] for e in st.log(0)].index(rest["final_score"]["i"])]["text"] == \
        "You score 104 points in total: potions 86 + Centum auri 10 + colour bonus 8."


def test_the_winner_is_told_and_a_tie_broken_on_potion_points_says_so():
    st = play_randomly(new(2, seed=3, action_cap=6), random.Random(3))
    [won] = [e for e in st.log(1) if e["kind"] == "game_won"]
    w = st.winners()[0]
    assert won["winners"] == st.winners() and won["total"] == st.scores()[w] and won["tie_break"] is False
    you = "You win" if w == 1 else f"Seat {w} wins"
    assert won["text"] == f"{you} with {int(st.scores()[w])} points and {'are' if w == 1 else 'is'} appointed the new druid of the village."
    # equal totals: the one with the more powerful potions wins, and the log says why
    five = (3,) * 5
    st._final = [ScoreBreakdown(five, five, 30, 0, 4, 34, 0), ScoreBreakdown(five, five, 34, 0, 0, 34, 0)]
    st.events = []
    st._tell_final_scores()
    told = st.log(0)[-1]
    assert (told["winners"], told["tie_break"]) == ([1], True)
    assert told["text"] == ("Seat 1 wins with 34 points, tied on the total but ahead on potion points (34), "
                            "and is appointed the new druid of the village.")
    tied = dict(won, winners=[0], total=90, potions=80, tie_break=True)
    assert event_text(tied, None) == ("Seat 0 wins with 90 points, tied on the total but ahead on potion points "
                                      "(80), and is appointed the new druid of the village.")
    shared = dict(won, winners=[0, 1], total=90, potions=80, tie_break=False)
    assert event_text(shared, 1) == "Seat 0 and you share the victory with 90 points each (tied on potion points too, 80)."


# ----- the log as a whole ----------------------------------------------------------------------
def test_every_recorded_kind_is_declared_and_every_declared_kind_happens():
    seen = set()
    for players, cap in ((2, None), (2, 3), (3, 2), (4, None), (4, 2)):
        for seed in range(3):
            st = play_randomly(new(players, seed=seed, action_cap=cap), random.Random(seed))
            for viewer in (None, *range(players)):
                entries = st.log(viewer)
                assert [e["i"] for e in entries] == list(range(len(entries)))
                for e in entries:
                    assert e["kind"] in EVENT_KINDS
                    assert e["text"].endswith(".") and e["text"][0].isupper()
                    seen.add(e["kind"])
    assert seen == set(EVENT_KINDS)


def test_every_action_records_its_own_event_first():
    st = new(2, seed=2, action_cap=5)
    rng = random.Random(2)
    while not st.is_terminal():
        seat = rng.choice(st.acting())
        action = rng.choice(st.legal_actions(seat))
        start = st.log_length()
        st.apply(action, seat)
        first = st.log(seat, since=start)[0]
        assert first["seat"] == seat
        assert first["kind"] == {"swap": "swap", "pass": "pass", "swap_all": "swap_all_and_pass",
                                 "flip": "flip", "place": "place"}[action.kind]


def test_a_state_saved_to_json_keeps_its_events():
    st = play_randomly(new(3, seed=4, action_cap=6), random.Random(4))
    loaded = AlarunState.from_json(json.loads(json.dumps(st.to_json())))
    for viewer in (None, 0, 1, 2):
        assert loaded.log(viewer) == st.log(viewer)
    st.record_events(False)
    assert AlarunState.from_json(json.loads(json.dumps(st.to_json()))).events is None


def test_playouts_and_samples_record_nothing():
    st = new(3, seed=4)
    st.record_events(False)
    play_randomly(st, random.Random(0))
    assert st.events is None and st.log(0) == []
    sample = SPEC.determinize(new(3, seed=4).view(1), random.Random(0))
    assert sample.events is None
