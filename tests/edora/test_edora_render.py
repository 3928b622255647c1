"""The terminal screen: the map shows paths, dark forest, stairs and start spaces; a legend
explains the codes; players are named by seat; help appears for the decision at hand."""

from nemeton.engine import get_game, make
from nemeton.games.edora.positions import fresh, play, put_dice

SPEC = get_game("edora")


def lines_with(text: str, word: str) -> list[str]:
    return [line for line in text.splitlines() if word in line]


def test_map_draws_the_paths_between_neighbouring_sanctuaries():
    text = SPEC.render(fresh(3).view(0))
    top = lines_with(text, "S01")[0]
    # S01-S02-S03 along the top edge; S05-S06 across stair A with a dark area on the way
    assert "S01" in top and "-----" in top.split("S01")[1].split("S02")[0]
    middle = [line for line in text.splitlines() if "S05" in line and "S06" in line][0]
    between = middle.split("S05")[1].split("S06")[0]
    assert "#" in between and "~" in between and "-" in between
    assert any("/" in line or "\\" in line for line in text.splitlines())


def test_map_has_no_path_where_the_board_has_none():
    text = SPEC.render(fresh(3).view(0))
    row = [line for line in text.splitlines() if "S11" in line and "S14" in line][0]
    assert "-" not in row  # S11, S12, S13, S14 are not joined sideways


def test_start_spaces_are_on_the_map_with_who_starts_there():
    st = make("edora", players=3, seed=3)
    text = SPEC.render(st.view(0))
    for name in ("ST1", "ST2", "ST3", "ST4"):
        assert name in text
    chooser = st.current_player
    play(st, "start at ST2 (next to S07)")
    letter = "ABC"[chooser]
    assert f"<ST2:{letter}" in SPEC.render(st.view(0))


def test_header_names_seats_and_explains_the_start_space_order():
    st = make("edora", players=3, seed=3)  # seat 2 is the start player here
    text = SPEC.render(st.view(0))
    assert "start player seat 2 [C] (plays first each round)" in text
    assert "start player last" in text and "order: seat 1 [B], seat 0 [A], seat 2 [C]" in text
    assert "to act: seat 1 [B]" in text and "P1 " not in text.split("\n")[1]


def test_legend_explains_space_codes_and_symbols():
    text = SPEC.render(fresh(2).view(0))
    for code in ("FD", "KNk", "SIk", "TB", "SS/RS", "MImPn", "AM-ROW-xk", "Tn tablet", "Pnx potion",
                 "dark forest", "stairs", "open fire pit", "- none"):
        assert code in text


def test_dice_on_the_map_use_the_seat_letters():
    st = fresh(2)
    put_dice(st, "S09:B5")
    text = SPEC.render(st.view(0))
    assert "5B" in lines_with(text, "(F06)")[0] and "seat 1 [B]" in text


def test_move_decision_lists_the_free_spaces_of_the_destinations():
    st = fresh(2)
    put_dice(st, "S02:B5 S03:A2")
    text = SPEC.render(st.view(0))
    assert "free spaces where you have no die:" in text
    assert "S02 FD" in text and "S01 FD KN2" in text and "S03 SS" not in text
    assert "free spaces" not in SPEC.render(st.view(1))   # not seat 1's decision


def test_tablet_conditions_are_shown_when_choosing_a_tablet():
    st = fresh(2)
    play(st, "move to S02 (cost 1)")
    play(st, "place die 1 on S02 space 1 (TB)")
    text = SPEC.render(st.view(0))
    assert "tablets (10 points each if met at the end):" in text
    offered = {t for t in st.view(0)["oracle_slots"] if t}
    assert all(f"{t} " in text for t in offered)


def test_lines_fit_in_100_columns():
    st = fresh(4)
    put_dice(st, "S09:A6 S09:B5 S09:C4 S09:D3")
    text = SPEC.render(st.view(0))
    assert max(len(line) for line in text.splitlines()) <= 100
