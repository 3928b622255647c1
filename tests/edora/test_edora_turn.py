"""Setup (§2), the turn in order (§3), competitions (§5), emergency turns, game end (§6), E4."""

import pytest

from nemeton.engine import IllegalActionError, make
from nemeton.games.edora.actions import Emergency
from nemeton.games.edora.positions import fresh, legal_texts, play, put_dice, set_player, start_turn
from nemeton.games.edora.steps import CHOOSE_START, MOVE, PLACE_DIE


# ----- setup ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_each_player_15_provisions_4_reserve_9_overview_dice_and_one_tablet(players):
    st = make("edora", players=players, seed=7)
    for p in range(players):
        assert st.provisions[p] == 15
        assert sum(st.reserve[7 * p:7 * p + 7]) == 4 and sum(st.overview[7 * p:7 * p + 7]) == 9
        assert len(st.tablets[p]) == 1
    assert sum(t >= 0 for t in st.oracle_slots) == 12
    assert len(st.deck) == 30 - 12 - players


def test_start_player_has_the_highest_reserve_sum_and_is_at_the_bottom_of_the_knowledge_stack():
    for seed in range(10):
        st = make("edora", players=3, seed=seed)
        sums = [sum(v * st.reserve[7 * p + v] for v in range(7)) for p in range(3)]
        sp = st.start_player
        assert sums[sp] == max(sums)
        # start player at the bottom, the others clockwise on top
        assert [st.knowledge_stack[(sp + k) % 3] for k in range(3)] == [0, 1, 2]


def test_start_spaces_are_chosen_counter_clockwise_from_the_start_players_right_start_player_last():
    st = make("edora", players=4, seed=3)
    sp = st.start_player
    order = []
    while st.stack[-1][0] == CHOOSE_START:
        order.append(st.current_player)
        legal = st.legal_actions()
        assert len(legal) == 4 - len(order) + 1
        st.apply(legal[0])
    assert order == [(sp - 1) % 4, (sp - 2) % 4, (sp - 3) % 4, sp]


def test_the_free_first_turn_steps_onto_the_start_sanctuary_without_cost_and_no_emergency():
    st = make("edora", players=2, seed=5)
    while st.stack[-1][0] == CHOOSE_START:
        play(st, legal_texts(st)[-1])
    p = st.current_player
    assert st.stack[-1][0] == PLACE_DIE
    s = st.board.names[st.start_at[p]]
    texts = legal_texts(st)
    assert texts and all(t.startswith("place die") and f" on {s} " in t for t in texts)
    assert not any(isinstance(a, Emergency) for a in st.legal_actions())
    before = st.provisions[p]
    a = st.legal_actions()[0]
    st.apply(a)
    assert st.provisions[p] == before - a.value


# ----- step 1: movement --------------------------------------------------------------------------

def test_move_costs_the_cheapest_route_and_excludes_own_dice_and_the_current_sanctuary():
    st = fresh(2)
    put_dice(st, "S02:A3")
    set_player(st, 0, at="S01", provisions=20, reserve=[1])
    texts = legal_texts(st)
    assert "move to S05 (cost 1)" in texts and "move to S06 (cost 3)" in texts
    assert not any("to S02 " in t for t in texts) and not any("to S01 " in t for t in texts)
    play(st, "move to S06 (cost 3)")
    assert st.provisions[0] == 17 and st.board.names[st.figure[0]] == "S06"


def test_a_destination_is_legal_only_if_a_die_can_then_be_paid():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=4, reserve=[3])
    texts = legal_texts(st)
    assert "move to S02 (cost 1)" in texts          # 1 + 3 = 4
    assert not any("(cost 2)" in t for t in texts)  # 2 + 3 = 5 > 4


def test_emergency_is_forced_when_no_normal_turn_is_possible():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=3, reserve=[3], overview=[5])
    assert legal_texts(st) == ["emergency turn (+6 provisions, 1 die)"]
    play(st, "emergency turn (+6 provisions, 1 die)")
    assert st.provisions[0] == 9 and st.reserve[7 * 0 + 5] == 1 and st.overview[5] == 0
    assert st.current_player == 1 and st.placed[0] == 0


def test_emergency_is_forced_without_reserve_dice_and_gives_2_prestige_without_overview_dice():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=30, reserve=[], overview=[])
    assert legal_texts(st) == ["emergency turn (+6 provisions, 1 die)"]
    play(st, "emergency turn (+6 provisions, 1 die)")
    assert st.prestige[0] == 2 and st.provisions[0] == 36


def test_emergency_is_optional_on_a_normal_turn_and_lets_the_player_choose_the_die():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=20, overview=[2, 6])
    assert "emergency turn (+6 provisions, 1 die)" in legal_texts(st)
    play(st, "emergency turn (+6 provisions, 1 die)")
    assert legal_texts(st) == ["take die 2 from the overview board", "take die 6 from the overview board"]
    play(st, "take die 6 from the overview board")
    assert st.reserve[6] == 1 and st.overview[7 * 0 + 2] == 1


# ----- step 2: placing ----------------------------------------------------------------------------

def test_placing_pays_the_die_value_and_uses_one_of_the_first_n_spaces():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=10, reserve=[4])
    play(st, "move to S05 (cost 1)")
    assert legal_texts(st) == ["place die 4 on S05 space 1 (AM-SUN-x2)", "place die 4 on S05 space 2 (RS)"]
    play(st, "place die 4 on S05 space 2 (RS)")
    assert st.provisions[0] == 10 - 1 - 4


def test_one_die_per_colour_per_sanctuary_for_the_whole_game():
    st = fresh(2)
    put_dice(st, "S05:A2")
    set_player(st, 0, at="S01", provisions=10)
    assert not any(" S05 " in t for t in legal_texts(st))


def test_revisit_option_allows_a_later_die_on_the_same_sanctuary_while_a_space_is_free():
    st = fresh(2, revisit_sanctuaries=True)
    put_dice(st, "S05:A2")
    set_player(st, 0, at="S01", provisions=10)
    assert "move to S05 (cost 1)" in legal_texts(st)
    put_dice(st, "S05:B3")        # now both spaces are taken
    assert "move to S05 (cost 1)" not in legal_texts(st)


def test_placing_is_allowed_even_when_the_action_cannot_be_used():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=10, reserve=[2])
    st.runes[0] = 0b111111              # no rune stone left
    play(st, "move to S05 (cost 1)", "place die 2 on S05 space 2 (RS)")
    assert st.provisions[0] == 7 and st.current_player == 1


# ----- step 3: competitions ----------------------------------------------------------------------

def test_competition_gives_2_prestige_to_the_highest_die_even_if_not_the_mover():
    st = fresh(2)
    put_dice(st, "S05:B6")
    set_player(st, 0, at="S01", provisions=10, reserve=[4])
    play(st, "move to S05 (cost 1)", "place die 4 on S05 space 2 (RS)", "place the mistletoe rune stone")
    assert st.prestige[1] == 2 and st.prestige[0] == 0


def test_single_die_holds_no_competition():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=10, reserve=[4])
    play(st, "move to S04 (cost 1)", "place die 4 on S04 space 2 (MI2P1)", "no more potions")
    assert st.prestige == [0, 0]


def test_competition_tie_goes_to_the_player_ahead_on_knowledge():
    st = fresh(2)
    put_dice(st, "S05:B4")
    set_player(st, 0, at="S01", provisions=10, reserve=[4], knowledge=3)
    set_player(st, 1, knowledge=2)
    play(st, "move to S05 (cost 1)", "place die 4 on S05 space 2 (RS)", "place the mistletoe rune stone")
    assert st.prestige[0] == 2 and st.prestige[1] == 0


def test_competition_tie_on_the_same_knowledge_space_goes_to_the_marker_higher_in_the_stack():
    st = fresh(2)
    put_dice(st, "S05:B4")
    set_player(st, 0, at="S01", provisions=10, reserve=[4], knowledge=3)
    set_player(st, 1, knowledge=3)
    st.knowledge_stack[0], st.knowledge_stack[1] = 5, 9       # P1 arrived later: on top
    play(st, "move to S05 (cost 1)", "place die 4 on S05 space 2 (RS)", "place the mistletoe rune stone")
    assert st.prestige[1] == 2 and st.prestige[0] == 0


def test_knowledge_marker_landing_on_an_occupied_space_goes_on_top():
    st = fresh(2)
    set_player(st, 0, knowledge=0)
    set_player(st, 1, knowledge=2)
    st.advance_knowledge(0, 2)
    assert st.ahead(0) > st.ahead(1)


# ----- game end and the safety valve ----------------------------------------------------------

def test_game_ends_after_the_round_in_which_a_player_places_the_13th_die():
    st = fresh(2)
    set_player(st, 0, at="S01", provisions=20, reserve=[1], overview=[], placed=12)
    set_player(st, 1, overview=[])
    play(st, "move to S04 (cost 1)", "place die 1 on S04 space 2 (MI2P1)", "no more potions")
    assert st.ending and not st.is_terminal() and st.current_player == 1   # the round is finished
    play(st, "emergency turn (+6 provisions, 1 die)")
    assert st.is_terminal() and st.final is not None


def test_the_13th_die_by_the_last_player_of_the_round_ends_the_game_at_once():
    st = fresh(2)
    start_turn(st, 1)
    set_player(st, 1, provisions=20, reserve=[1], overview=[], placed=12)
    play(st, "move to S10 (cost 1)", "place die 1 on S10 space 2 (RS)", "place the mistletoe rune stone")
    assert st.is_terminal()


def test_safety_valve_ends_the_game_after_3_rounds_without_a_die():
    st = fresh(2, safety_valve=True)
    for _ in range(3):
        for p in (0, 1):
            assert not st.is_terminal()
            play(st, "emergency turn (+6 provisions, 1 die)")
            while not st.is_terminal() and st.stack[-1][0] != MOVE:
                st.apply(st.legal_actions()[0])
    assert st.is_terminal()


def test_without_the_safety_valve_idle_rounds_never_end_the_game():
    st = fresh(2)
    for _ in range(5):
        for p in (0, 1):
            play(st, "emergency turn (+6 provisions, 1 die)")
            while st.stack[-1][0] != MOVE:
                st.apply(st.legal_actions()[0])
    assert not st.is_terminal() and st.round == 6


def test_safety_valve_is_on_for_bots_only():
    from nemeton.engine import get_game
    spec = get_game("edora")
    assert spec.bot_defaults == {"safety_valve": True}
    assert spec.options().safety_valve is False


def test_illegal_action_is_refused_and_changes_nothing():
    st = fresh(2)
    before = st.to_json()
    with pytest.raises(IllegalActionError):
        play_action = st.legal_actions()[0]
        st.apply(play_action, seat=1)
    assert st.to_json() == before
