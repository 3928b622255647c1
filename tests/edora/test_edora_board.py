"""The §9 board as package data: counts, movement costs, geometry, and validation errors."""

from collections import Counter

import pytest
import yaml

from nemeton.engine import InvalidOptionsError, get_game, make
from nemeton.games.edora.board import BoardError, board_from_text, standard_board_text

STANDARD = standard_board_text()

ORACLE = {
    2: (48, {"FD": 8, "KN": 6, "SI": 6, "MI": 6, "AM": 6, "TB": 6, "SS": 6, "RS": 4}),
    3: (72, {"FD": 12, "SI": 10, "AM": 10, "TB": 10, "KN": 8, "MI": 8, "RS": 8, "SS": 6}),
    4: (96, {"FD": 16, "KN": 12, "SI": 12, "MI": 12, "AM": 12, "TB": 12, "SS": 10, "RS": 10}),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_space_counts_match_the_spec_oracle(players):
    b = board_from_text()
    counts = Counter(code[:2] for s in range(b.size) for code in b.spaces[s][:players])
    total, by_type = ORACLE[players]
    assert sum(counts.values()) == total
    assert dict(counts) == by_type


def test_movement_cost_is_sanctuaries_entered_plus_dark_areas_example_5():
    b = board_from_text()
    i = b.index
    # S02 -> S09 (1 dark) -> S12 -> S15 (1 dark): 3 sanctuaries + 2 dark areas = 5
    assert b.dist[i["S02"]][i["S15"]] == 5
    assert b.dist[i["S01"]][i["S02"]] == 1            # neighbour, no dark area
    assert b.dist[i["S05"]][i["S06"]] == 2            # neighbour across a dark area


def test_board_geometry_and_fairness_facts():
    b = board_from_text()
    assert b.size == 24 and len(b.edges) == 36 and sum(d for _, _, d in b.edges) == 10
    assert all(len(nb) == 3 for nb in b.neighbours)
    assert sorted(len(a) for a in b.pit_around) == [2] * 4 + [3] * 8 + [4] * 4
    assert sum(b.portal) == 4 and len(b.glade_names) == 9
    # the 4 start sanctuaries have equal total movement cost to all others (83)
    assert {sum(b.dist[s]) for s in b.start_sanctuary} == {83}
    assert [b.names[s] for s in b.start_sanctuary] == ["S01", "S07", "S24", "S18"]


def test_stair_crossings_are_two_independent_paths():
    b = board_from_text()
    i = b.index
    assert i["S09"] in b.neighbours[i["S02"]] and i["S06"] in b.neighbours[i["S05"]]
    assert i["S05"] not in b.neighbours[i["S02"]]


def _changed(mutate) -> str:
    """The text of a changed copy of the standard board."""
    data = yaml.safe_load(STANDARD)
    mutate(data)
    return yaml.safe_dump(data)


def test_unknown_sanctuary_in_an_edge_is_refused():
    text = _changed(lambda d: d["board"]["edges"].append(["S01", "S99", 0]))
    with pytest.raises(BoardError, match="unknown sanctuary 'S99'"):
        board_from_text(text)


def test_fire_pit_with_a_wrong_number_of_neighbours_is_refused():
    def mutate(d):
        d["board"]["fire_pits"]["F01"]["around"] = ["S01"]
        d["board"]["fire_pits"]["F01"]["rewards"] = ["FOOD"]
    with pytest.raises(BoardError, match="F01: must border 2, 3 or 4"):
        board_from_text(_changed(mutate))


def test_fire_pit_rewards_must_match_its_neighbours():
    text = _changed(lambda d: d["board"]["fire_pits"]["F02"].update(rewards=["VP", "DIE"]))
    with pytest.raises(BoardError, match="F02: a pit bordering 3 sanctuaries shows 3 rewards"):
        board_from_text(text)


def test_dolmen_ring_breaking_the_separation_rule_is_refused():
    text = _changed(lambda d: d["board"].update(
        dolmen_reference_colours=["A", "A", "B", "C", "B", "D", "C", "E", "D", "F", "E", "F"]))
    with pytest.raises(BoardError, match="two A dolmens .* at least 2 other dolmens"):
        board_from_text(text)


def test_unknown_space_code_is_refused():
    text = _changed(lambda d: d["board"]["sanctuaries"]["S05"].update(spaces=["XX", "FD", "TB", "RS"]))
    with pytest.raises(BoardError, match="S05: unknown space code 'XX'; allowed: FD, KN<k>"):
        board_from_text(text)


def test_amulet_space_naming_an_unknown_row_is_refused():
    text = _changed(lambda d: d["board"]["sanctuaries"]["S05"].update(
        spaces=["AM-SKY-x2", "FD", "TB", "RS"]))
    with pytest.raises(BoardError, match="row 'SKY'"):
        board_from_text(text)


def test_glade_lists_must_match_the_sanctuaries():
    text = _changed(lambda d: d["board"]["glades"].update(G1=["S01", "S04"]))
    with pytest.raises(BoardError, match="glade G1"):
        board_from_text(text)


def test_unreadable_yaml_is_refused():
    with pytest.raises(BoardError, match="not valid YAML at line 1"):
        board_from_text("board: [unclosed")


def test_another_board_is_used_without_code_changes():
    # a copy where S05's first space is a knowledge space
    text = _changed(lambda d: d["board"]["sanctuaries"]["S05"].update(spaces=["KN3", "RS", "TB", "FD"]))
    st = make("edora", players=2, seed=1, board=text)
    assert st.board.spaces[st.board.index["S05"]][0] == "KN3"


def test_a_board_with_too_few_spaces_for_the_player_count_is_refused():
    text = _changed(lambda d: d["board"]["sanctuaries"]["S05"].update(spaces=["FD", "TB", "RS"]))
    make("edora", players=3, seed=1, board=text)
    with pytest.raises(InvalidOptionsError, match="4 players need 4"):
        make("edora", players=4, seed=1, board=text)


# ----- the board option holds a board's text, never a path ---------------------------------

def test_the_board_option_is_the_text_of_a_board_and_none_is_the_designed_board():
    info = next(o for o in get_game("edora").describe_options() if o.name == "board")
    assert info.kind == "data" and info.data == "YAML board" and info.standard_hash
    st = make("edora", players=2, seed=1, board=STANDARD)
    assert st.board.names == board_from_text(None).names
    assert board_from_text(STANDARD) is board_from_text(STANDARD), "parsed boards are cached by content"


def test_a_path_given_as_the_board_option_is_never_opened(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text(STANDARD)
    with pytest.raises(InvalidOptionsError, match="board: must be a mapping"):
        make("edora", players=2, seed=1, board=str(path))


def test_board_errors_quote_no_more_than_a_short_name_of_the_text():
    secret = "TOPSECRET" * 20
    bad = STANDARD.replace("S05: {xy: [2,1]", f"S05: {{xy: [{secret}, 1]")
    with pytest.raises(BoardError) as err:
        board_from_text(bad)
    assert "TOPSECRET" * 3 not in str(err.value) and len(str(err.value)) < 200
    for text in ("root:x:0:0:root:/root:/bin/bash\nsecret: " + secret, "- " + secret, secret + ": [1, 2"):
        with pytest.raises(BoardError) as err:
            board_from_text(text)
        assert "TOPSECRET" * 3 not in str(err.value) and len(str(err.value)) < 200


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["board"]["sanctuaries"]["S05"].update(xy=[10 ** 9, 1]), "x: must be an integer from 0 to 20"),
    (lambda d: d["board"]["edges"].append(["S01", "S03", 10 ** 9]), "dark areas: must be an integer from 0 to 3"),
    (lambda d: d["player_board"]["knowledge_track"].update(end=10 ** 9), "knowledge_track.end"),
    (lambda d: d["board"]["sanctuaries"]["S05"].update(spaces=["FD"] * 9), "2 to 4 action spaces"),
    (lambda d: d["board"]["fire_pits"]["F01"].update(around=[["S01"], ["S04"]]), "unknown sanctuary"),
    (lambda d: d["board"]["sanctuaries"]["S05"].update(glade=["G1"]), "unknown glade"),
    (lambda d: d["player_board"].update(start_provisions=True), "start_provisions"),
    (lambda d: d.update(board=[1, 2, 3]), "board: must be a mapping"),
])
def test_boards_of_the_wrong_shape_or_size_are_refused_with_a_board_error(mutate, message):
    with pytest.raises(BoardError, match=message):
        board_from_text(_changed(mutate))


