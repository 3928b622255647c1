"""Every sanctuary action (§4.2), the basic rewards (§4.1) and track overflow."""

import pytest

from nemeton.games.edora.positions import fresh, legal_texts, play, set_oracle, set_player, start_turn
from nemeton.games.edora.components import RUNE_NAMES, TABLETS


def _at(st, sanct, **kw):
    start_turn(st, 0, place_at=sanct)
    set_player(st, 0, **kw)


# ----- FD -------------------------------------------------------------------------------------

def test_provisions_space_gives_12_provisions():
    st = fresh(2)
    _at(st, "S01", provisions=10, reserve=[2])
    play(st, "place die 2 on S01 space 1 (FD)")
    assert legal_texts(st) == ["take 12 provisions", "take 3 dice from the overview board"]
    play(st, "take 12 provisions")
    assert st.provisions[0] == 10 - 2 + 12


def test_provisions_space_can_take_3_overview_dice_of_the_players_choice():
    st = fresh(2)
    _at(st, "S01", provisions=10, reserve=[2], overview=[1, 5, 6, 6])
    play(st, "place die 2 on S01 space 1 (FD)", "take 3 dice from the overview board",
         "take die 6 from the overview board", "take die 5 from the overview board",
         "take die 6 from the overview board")
    assert st.reserve[0:7] == [0, 0, 0, 0, 0, 1, 2] and st.overview[0:7] == [0, 1, 0, 0, 0, 0, 0]


def test_each_die_missing_from_the_overview_board_gives_2_prestige():
    st = fresh(2)
    _at(st, "S01", provisions=10, reserve=[2], overview=[4])
    play(st, "place die 2 on S01 space 1 (FD)", "take 3 dice from the overview board")
    assert st.reserve[4] == 1 and st.prestige[0] == 4


# ----- KN / SI --------------------------------------------------------------------------------

@pytest.mark.parametrize("sanct,space,steps", [("S01", "place die 2 on S01 space 2 (KN2)", 2),
                                               ("S09", "place die 2 on S09 space 1 (KN3)", 3)])
def test_knowledge_spaces_advance_the_marker(sanct, space, steps):
    st = fresh(2)
    _at(st, sanct, reserve=[2])
    play(st, space)
    assert st.knowledge[0] == steps


def test_sickle_spaces_advance_the_sickle_and_release_herbs_at_the_end_of_the_turn():
    st = fresh(2)
    _at(st, "S12", reserve=[2])
    play(st, "place die 2 on S12 space 1 (SI3)")
    assert st.sickle[0] == 3
    texts = legal_texts(st)         # step 7: the pair at position 2 is released
    assert len(texts) == 2 and all(t.startswith("activate") for t in texts)


def test_knowledge_overflow_gives_2_prestige_per_step_and_tops_the_stack():
    st = fresh(2)
    _at(st, "S09", reserve=[2], knowledge=13)
    set_player(st, 1, knowledge=14)
    play(st, "place die 2 on S09 space 1 (KN3)")
    assert st.knowledge[0] == 14 and st.prestige[0] == 4
    assert st.ahead(0) > st.ahead(1)


def test_sickle_overflow_gives_2_prestige_per_step():
    st = fresh(2)
    _at(st, "S12", reserve=[2], sickle=17)
    play(st, "place die 2 on S12 space 1 (SI3)")
    assert st.sickle[0] == 18 and st.prestige[0] == 4


# ----- TB -------------------------------------------------------------------------------------

def test_tablet_space_takes_a_tablet_gains_its_sides_two_oracle_stones_and_refills():
    st = fresh(2)
    set_oracle(st, ["VP", "KNOW", "FOOD", "DIE", "MIST", "SICKLE"],
               ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12"])
    top = st.deck[-1]
    _at(st, "S02", reserve=[2], provisions=10)
    play(st, "place die 2 on S02 space 1 (TB)")
    assert len(legal_texts(st)) == 12
    play(st, "take tablet T4 (oracle side 1, slot 3)")      # side 1: corners KNOW and FOOD
    assert TABLETS[st.tablets[0][-1]] == "T4"
    assert st.knowledge[0] == 1 and st.provisions[0] == 8 + 3
    assert st.oracle_slots[3] == top


def test_tablet_slot_stays_empty_when_the_deck_is_empty():
    st = fresh(2)
    st.deck, st.deck_marks = [], []
    _at(st, "S02", reserve=[2])
    play(st, "place die 2 on S02 space 1 (TB)")
    play(st, legal_texts(st)[0])
    assert st.oracle_slots[0] == -1


# ----- MI -------------------------------------------------------------------------------------

def test_mistletoe_space_gives_mistletoe_then_up_to_n_potions_and_keeps_the_rest():
    st = fresh(4)
    _at(st, "S01", reserve=[2], mistletoe=2)
    play(st, "place die 2 on S01 space 4 (MI2P2)")
    assert st.mistletoe[0] == 4
    assert "brew P4a: knowledge +3" in legal_texts(st) and "brew P5a: amulet action x5, row of your choice" not in legal_texts(st)
    play(st, "brew P1b: turn one of your inactive herbs face up", "brew P2c: sickle +3")
    assert st.mistletoe[0] == 1 and st.sickle[0] == 3
    assert st.potion_owner[1] == 0 and st.potion_owner[5] == 0
    assert legal_texts(st)[0].startswith("activate")     # the sickle released a pair


def test_mistletoe_space_with_one_brew_stops_after_one_potion():
    st = fresh(2)
    _at(st, "S04", reserve=[2], mistletoe=5)
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P6c: +25 prestige")
    assert st.prestige[0] == 25 and st.mistletoe[0] == 1 and st.current_player == 1


def test_a_brewed_potion_is_gone_for_everybody():
    st = fresh(2)
    st.potion_owner[0] = 1
    _at(st, "S04", reserve=[2])
    play(st, "place die 2 on S04 space 2 (MI2P1)")
    assert "brew P1a: standing-stone action here" not in legal_texts(st) and "brew P1b: turn one of your inactive herbs face up" in legal_texts(st)


# ----- AM -------------------------------------------------------------------------------------

def test_amulet_gem_goes_left_then_right_and_pays_its_reward_k_times():
    st = fresh(2)
    _at(st, "S05", reserve=[2], provisions=10)
    play(st, "place die 2 on S05 space 1 (AM-SUN-x2)")
    assert len(legal_texts(st)) == 6
    play(st, "put the provisions gem on the SUN row")
    assert st.amulet[0] == 2 and st.provisions[0] == 8 + 6
    start_turn(st, 0, place_at="S20")
    set_player(st, 0, reserve=[2])
    play(st, "place die 2 on S20 space 1 (AM-SUN-x2)")
    assert "put the provisions gem on the SUN row" not in legal_texts(st)      # one gem per type
    play(st, "put the prestige gem on the SUN row")
    assert st.amulet[0:2] == [2, 0] and st.prestige[0] == 6


def test_amulet_space_on_a_full_row_does_nothing():
    st = fresh(2)
    st.amulet[0:2] = [0, 1]
    st.gem_mask[0] = 0b11
    _at(st, "S05", reserve=[2])
    play(st, "place die 2 on S05 space 1 (AM-SUN-x2)")
    assert st.current_player == 1 and st.prestige[0] == 0


# ----- SS -------------------------------------------------------------------------------------

def test_standing_stone_rulebook_example_food_after_vp_die_mist():
    st = fresh(2)
    st.standing[0] = 0b011001          # VP, DIE, MIST already off the row
    _at(st, "S03", reserve=[2], provisions=10, overview=[5])
    play(st, "place die 2 on S03 space 1 (SS)")
    assert legal_texts(st) == ["place the knowledge standing stone", "place the provisions standing stone",
                               "place the sickle standing stone", "skip the standing-stone action"]
    play(st, "place the provisions standing stone")
    # FOOD, then VP, FOOD, DIE, MIST
    assert st.provisions[0] == 8 + 6 and st.prestige[0] == 3 and st.mistletoe[0] == 1 and st.reserve[5] == 1
    assert st.standing_at[st.board.index["S03"]] == 1


def test_the_nth_standing_stone_yields_n_plus_1_rewards():
    st = fresh(2)
    _at(st, "S03", reserve=[2])
    play(st, "place die 2 on S03 space 1 (SS)", "place the prestige standing stone")
    assert st.prestige[0] == 6


# ----- RS -------------------------------------------------------------------------------------

@pytest.mark.parametrize("stone,check", [
    ("MIST", lambda st: st.mistletoe[0] == 4),                     # [R] v=5 -> 4 mistletoe
    ("PRESTIGE_POINT", lambda st: st.prestige[0] == 10),      # [R] v=5 -> 10 prestige
    ("KNOW", lambda st: st.knowledge[0] == 4),
    ("SICKLE_STEP", lambda st: st.sickle[0] == 5),
    ("PROVISION", lambda st: st.provisions[0] == 20 - 5 + 15),
])
def test_rune_stone_reward_depends_on_the_die_value(stone, check):
    st = fresh(2)
    _at(st, "S05", reserve=[5], provisions=20)
    play(st, "place die 5 on S05 space 2 (RS)", f"place the {RUNE_NAMES[stone]} rune stone")
    assert check(st)
    assert st.rune_at[st.board.index["S05"]] == 1


def test_stone_actions_may_be_left_unused_but_the_die_is_paid():
    st = fresh(2)
    _at(st, "S05", reserve=[5], provisions=20)
    play(st, "place die 5 on S05 space 2 (RS)", "skip the rune-stone action")
    assert st.runes[0] == 0 and st.provisions[0] == 15 and st.current_player == 1
    st = fresh(2)
    _at(st, "S03", reserve=[2])
    play(st, "place die 2 on S03 space 1 (SS)", "skip the standing-stone action")
    assert st.standing[0] == 0 and st.standing_at[st.board.index["S03"]] == 0


def test_potion_stone_actions_offer_no_skip():
    st = fresh(2)
    start_turn(st, 0, place_at="S04")
    set_player(st, 0, reserve=[2], mistletoe=3)
    play(st, "place die 2 on S04 space 2 (MI2P1)", "brew P5b: rune-stone action as if the die showed 6")
    assert "skip the rune-stone action" not in legal_texts(st)


def test_rune_stone_die_gives_v_minus_1_dice():
    st = fresh(2)
    _at(st, "S05", reserve=[3], overview=[6, 6, 6])
    play(st, "place die 3 on S05 space 2 (RS)", "place the die rune stone")
    assert st.reserve[6] == 2


# ----- decoding actions from JSON -----------------------------------------------------------

def _module_table_sizes():
    """The size of every dict, list, set and cache at module level in the game's package."""
    import functools
    import importlib
    import pkgutil

    import nemeton.games.edora as package
    sizes = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, (dict, list, set)):
                sizes[f"{info.name}.{name}"] = len(value)
            elif isinstance(value, functools._lru_cache_wrapper):
                sizes[f"{info.name}.{name}()"] = value.cache_info().currsize
    from nemeton.games.edora.board import board_from_text
    board = board_from_text()
    sizes["board.tables"] = sum(len(t) for t in board.tables.values())
    return sizes


def test_decoding_junk_actions_grows_no_table():
    from nemeton.engine import RecordError
    from nemeton.engine import get_game
    spec = get_game("edora")
    spec.make(players=2, seed=0)            # every table of the standard board is built
    before = _module_table_sizes()
    assert before, "the check sees the module tables"
    accepted = 0
    for k in range(20_000):
        data = [{"type": "move", "to": f"X{k}", "cost": 1 + k % 200},
                {"type": "place", "sanctuary": f"Q{k}", "space": 1 + k % 4, "action": "FD",
                 "die": 1 + k % 6, "value": 1 + (k // 6) % 6},
                {"type": "raise_die", "sanctuary": f"Z{k}", "space": 1, "value": 1 + k % 5},
                {"type": "gem", "gem": "VP", "row": "R" * (1 + k % 12)},
                {"type": "move", "to": "S01", "cost": k + 10_000}][k % 5]
        try:
            spec.action_from_json(data)
            accepted += 1
        except RecordError:
            pass
    assert accepted > 10_000, "well-typed actions naming no sanctuary of this board are still decoded"
    assert _module_table_sizes() == before


@pytest.mark.parametrize("data", [
    {"type": "move", "to": None, "cost": 1},
    {"type": "move", "to": "S02", "cost": float("inf")},
    {"type": "move", "to": "S02", "cost": 1.0},
    {"type": "move", "to": "S02", "cost": True},
    {"type": "move", "to": ["S02"], "cost": 1},
    {"type": "move", "to": "S02", "cost": [1]},
    {"type": "move", "to": "S02", "cost": 0},
    {"type": "move", "to": "S" * 40, "cost": 1},
    {"type": "take_die", "value": 7},
    {"type": "take_die", "value": False},
    {"type": "brew", "potion": "P7z"},
    {"type": "food", "take": "everything"},
    {"type": "activate_herb", "herb": "H_VP", "other": "H_VP"},
    {"type": "place", "sanctuary": "S01", "space": 1, "action": "XX", "die": 3, "value": 3},
    {"type": "take_tablet", "slot": 12, "tablet": "T1"},
    {"type": "arrange_herb", "herb": "H_VP", "circle": None},
])
def test_decoding_refuses_null_infinity_lists_bools_and_out_of_range_fields(data):
    from nemeton.engine import RecordError
    from nemeton.engine import get_game
    with pytest.raises(RecordError):
        get_game("edora").action_from_json(data)


def test_decoded_actions_equal_the_legal_ones():
    import json
    from nemeton.engine import get_game
    spec = get_game("edora")
    st = fresh(2)
    play(st, "move to S02 (cost 1)")
    for action in st.legal_actions():
        assert spec.action_from_json(json.loads(json.dumps(action.to_json()))) == action


# ----- decoding against the game's board ---------------------------------------------------

JUNK = [{"type": "place", "sanctuary": "NOPE", "space": 4, "action": "MI9P9", "die": 1, "value": 6},
        {"type": "move", "to": "ZZZZZZZZZZZZ", "cost": 100},
        {"type": "start", "start": "X", "sanctuary": "Y"}]


def _oak_board() -> str:
    """The designed board with S01 (next to start space ST1) renamed OAK."""
    from nemeton.games.edora.board import standard_board_text
    text = standard_board_text()
    assert "OAK" not in text
    return text.replace("S01", "OAK")


@pytest.mark.parametrize("data", JUNK)
def test_actions_naming_nothing_on_the_board_are_refused_given_the_options(data):
    from nemeton.engine import RecordError, get_game
    spec = get_game("edora")
    spec.action_from_json(data)  # well typed: without the board, nothing more can be checked
    with pytest.raises(RecordError, match="field '(sanctuary|to|start)' must be"):
        spec.action_from_json(data, spec.options(players=2))


@pytest.mark.parametrize("data", JUNK)
def test_a_record_holding_junk_actions_is_refused_at_load(data):
    from nemeton.engine import GameRecord, RecordError, get_game
    record = get_game("edora").make(players=2, seed=0).record().to_json()
    record["actions"] = [{"seat": 0, "action": data}]
    with pytest.raises(RecordError, match="record action 0"):
        GameRecord.from_json(record)


@pytest.mark.parametrize("data,field", [
    ({"type": "move", "to": "S02", "cost": 100}, "cost"),            # no route to S02 costs 100
    ({"type": "move", "to": "S02", "cost": 7}, "cost"),
    ({"type": "start", "start": "ST1", "sanctuary": "S02"}, "sanctuary"),  # ST1 leads to S01
    ({"type": "place", "sanctuary": "S01", "space": 2, "action": "MI2P2", "die": 3, "value": 3}, "action"),
    ({"type": "place", "sanctuary": "S01", "space": 3, "action": "SI2", "die": 3, "value": 3}, "space"),
    ({"type": "raise_die", "sanctuary": "S01", "space": 3, "value": 2}, "space"),
    ({"type": "gem", "gem": "VP", "row": "SKY"}, "row"),
    ({"type": "leap", "to": "S99"}, "to"),
])
def test_costs_spaces_start_spaces_and_rows_must_be_the_boards(data, field):
    from nemeton.engine import RecordError, get_game
    spec = get_game("edora")
    with pytest.raises(RecordError, match=f"field '{field}' must be"):
        spec.action_from_json(data, spec.options(players=2))


def test_a_space_a_larger_game_uses_exists_for_that_game():
    from nemeton.engine import get_game
    spec = get_game("edora")
    data = {"type": "place", "sanctuary": "S01", "space": 3, "action": "SI2", "die": 3, "value": 3}
    assert spec.action_from_json(data, spec.options(players=3)).space == 3


def test_setup_actions_of_a_variant_are_refused_in_a_game_without_it():
    from nemeton.engine import RecordError, get_game
    spec = get_game("edora")
    keep = {"type": "keep_tablet", "tablet": "T3"}
    assert spec.action_from_json(keep, spec.options(tablet_draft=True)).tablet == "T3"
    with pytest.raises(RecordError, match="variant V1"):
        spec.action_from_json(keep, spec.options())
    arrange = {"type": "arrange_herb", "herb": "H_VP", "circle": 0}
    with pytest.raises(RecordError, match="variant V3"):
        spec.action_from_json(arrange, spec.options())


def test_decoding_with_the_options_returns_the_boards_own_actions():
    import json
    from nemeton.engine import get_game
    from nemeton.games.edora.actions import PlaceDie
    spec = get_game("edora")
    st = fresh(2)
    play(st, "move to S02 (cost 1)")
    legal = st.legal_actions()
    assert any(isinstance(a, PlaceDie) for a in legal)
    for action in legal:
        decoded = spec.action_from_json(json.loads(json.dumps(action.to_json())), st.options)
        assert decoded == action
        if isinstance(action, PlaceDie):
            assert decoded is action, "a place action is the board's table entry, not a new value"


def test_an_action_of_another_board_is_decoded_with_that_boards_options_only():
    from nemeton.engine import RecordError, get_game
    spec = get_game("edora")
    board = _oak_board()
    state = spec.make(players=2, seed=1, board=board)
    start = next(a for a in state.legal_actions() if a.sanctuary == "OAK")
    data = start.to_json()
    assert spec.action_from_json(data, spec.options(players=2, board=board)) == start
    with pytest.raises(RecordError, match="field 'sanctuary' must be 'S01'"):
        spec.action_from_json(data, spec.options(players=2))
    move = {"type": "move", "to": "OAK", "cost": 1}
    assert spec.action_from_json(move, spec.options(players=2, board=board)).to == "OAK"
    with pytest.raises(RecordError, match="field 'to' must be a sanctuary of this board"):
        spec.action_from_json(move, spec.options(players=2))


def test_a_record_of_another_board_replays_its_own_actions_and_refuses_the_standard_boards():
    import random
    from nemeton.engine import GameRecord, RecordError, get_game
    spec = get_game("edora")
    state = spec.make(players=2, seed=4, board=_oak_board())
    rng = random.Random(4)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    record = state.record().to_json()
    assert GameRecord.from_json(record).replay().to_json() == state.to_json()
    record["actions"].append({"seat": 0, "action": {"type": "leap", "to": "S01"}})
    with pytest.raises(RecordError, match="record action 12: .*field 'to'"):
        GameRecord.from_json(record)


def test_decoding_junk_with_the_options_grows_no_table():
    from nemeton.engine import RecordError, get_game
    spec = get_game("edora")
    options = spec.options(players=2)
    spec.make(players=2, seed=0)
    before = _module_table_sizes()
    for k in range(5_000):
        data = [{"type": "move", "to": f"X{k}", "cost": 1 + k % 200},
                {"type": "place", "sanctuary": f"Q{k}", "space": 1, "action": "FD", "die": 1, "value": 1},
                {"type": "gem", "gem": "VP", "row": "R" * (1 + k % 12)},
                {"type": "start", "start": f"ST{k}", "sanctuary": "S01"}][k % 4]
        with pytest.raises(RecordError):
            spec.action_from_json(data, options)
    assert _module_table_sizes() == before
