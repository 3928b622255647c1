"""The terminal screen: the square's grid labels its axes and says what (x, y) in a placement
action means, so `place ... at (+1,0)` can be found on the grid."""

from nemeton.engine import get_game

from alarun_helpers import act, new, pass_round

SPEC = get_game("alarun")


def placing(players: int = 2):
    st = new(players, seed=2)
    pass_round(st)
    return st


def test_grid_labels_x_across_and_y_down():
    text = SPEC.render(placing().view(0))
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("   x →"))
    assert lines[header].split()[2:] == ["-1", "0", "1"]
    assert lines[header + 1].startswith("y ↓ -1")
    assert "DRUI" in lines[header + 2] and lines[header + 2].split()[0] == "0"


def test_screen_says_what_x_and_y_of_a_placement_mean():
    text = SPEC.render(placing().view(0))
    assert "place ... at (x,y): x = column (x →), y = row (y ↓), from the druid (DRUI = 0,0)" in text
    assert "+ = right/down" in text


def test_a_placement_lands_where_the_axes_say():
    st = placing()
    hand = st.view(0)["hand"]
    act(st, f"place {hand[0]} at (+1,0)", seat=0)
    lines = SPEC.render(st.view(0)).splitlines()
    mine = next(i for i, line in enumerate(lines) if line.startswith("seat 0 (you)"))
    header = lines[mine + 1].split()[2:]
    druid_row = next(line for line in lines[mine + 2:] if "DRUI" in line)
    cells = druid_row[8:]
    column = header.index("1")
    assert cells[6 * column:6 * column + 6].rstrip().endswith("*")  # placed this round, right of the druid


def test_lines_fit_in_100_columns():
    st = placing(4)
    for seat in range(4):
        assert max(len(line) for line in SPEC.render(st.view(seat)).splitlines()) <= 100
