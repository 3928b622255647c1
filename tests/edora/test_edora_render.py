"""The terminal screen: 80 columns and about 50 lines, the map with paths, dark forest and
stairs, the board's fixed features (fire-pit rewards, start spaces, glades, portals, lines of
four, every sanctuary's spaces on the full map), players named by seat, help for the decision
at hand, the emergency turn and the winner said in words."""

import random

import pytest

from nemeton.engine import get_game, make
from nemeton.games.edora.positions import fresh, play, put_dice, set_player
from nemeton.games.edora.render import render

SPEC = get_game("edora")


def lines_with(text: str, word: str) -> list[str]:
    return [line for line in text.splitlines() if word in line]


def _played(players, steps, seed=3, **options):
    st = make("edora", players=players, seed=seed, safety_valve=True, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()), st.current_player)
    return st


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


@pytest.mark.parametrize("players,steps,lines", [(2, 8, 55), (2, 60, 55), (3, 70, 60), (4, 90, 65), (4, 400, 65)])
def test_the_screen_fits_80_columns_and_about_50_lines(players, steps, lines):
    st = _played(players, steps)
    for seat in [None, *range(players)]:
        text = SPEC.render(st.view(seat))
        assert max(len(line) for line in text.splitlines()) <= 80
        assert len(text.splitlines()) <= lines
    full = render(st.view(0), full=True)
    assert max(len(line) for line in full.splitlines()) <= 80 and len(full.splitlines()) > lines


def test_start_spaces_are_listed_with_who_starts_there():
    st = make("edora", players=3, seed=3)
    text = SPEC.render(st.view(0))
    assert "start spaces: ST1>S01 · ST2>S07 · ST3>S24 · ST4>S18" in text
    chooser = st.current_player
    play(st, "start at ST2 (next to S07)")
    assert f"ST2>S07 ({'ABC'[chooser]})" in SPEC.render(st.view(0))


def test_header_names_seats_and_explains_the_start_space_order():
    st = make("edora", players=3, seed=3)  # seat 2 is the start player here
    text = " ".join(SPEC.render(st.view(0)).split())
    assert "start player seat 2 [C] · you are seat 0 [A]" in text
    assert "start player last" in text and "order: seat 1 [B], seat 0 [A], seat 2 [C]" in text
    assert "to act: seat 1 [B]: choose a start space" in text


def test_open_fire_pits_show_their_rewards_and_closed_ones_their_owner():
    st = fresh(2)
    st.pit_closed[0] = 1                       # F01 closed by seat 1
    text = SPEC.render(st.view(0))
    pits = " ".join(lines_with(text, "VP+VP+DIE") + lines_with(text, "open fire pits"))
    assert "F02 VP+VP+DIE" in pits and "F01 " not in pits
    assert "F01:B" in text


def test_the_full_map_lists_every_sanctuarys_spaces_every_fire_pit_the_glades_and_lines_of_four():
    st = fresh(2)
    put_dice(st, "S05:B3")
    text = render(st.view(0), full=True)
    assert "  S05 (G1): AM-SUN-x2=3B  RS" in text
    assert "  S02 (G5*): TB  FD" in text
    assert "  F06 S05 S08 S09 S12: VP VP KNOW MIST" in text
    assert "G5* S02 S06" in text and "S04-S05-S06-S07" in text
    for code in ("FD 12 provisions", "KNk/SIk", "MImPn", "AM-ROW-xk", "dark forest", "stairs",
                 "VP 3 prestige"):
        assert code in text
    assert "on the sickle track: 2:" in text     # the whole track, not only the next pair


def test_glades_and_lines_of_four_are_shown_while_a_tablet_depends_on_them():
    st = fresh(2)
    st.tablets[0] = [11]                          # T12: your dice in 6 glades
    st.tablets[1] = [2]                           # T3: a line of four
    assert "glades (* portal):" in SPEC.render(st.view(0))
    assert "lines of four:" not in SPEC.render(st.view(0))
    assert "lines of four:" in SPEC.render(st.view(1)) and "glades" not in SPEC.render(st.view(1))
    assert "glades (* portal):" not in SPEC.render(st.view(None))
    assert "glades (* portal):" in render(st.view(None), full=True)


def test_dice_on_the_map_use_the_seat_letters():
    st = fresh(2)
    put_dice(st, "S09:B5")
    text = SPEC.render(st.view(0))
    assert "5B" in lines_with(text, "F06")[0] and "seat 1 [B]" in text


def test_move_decision_lists_the_free_spaces_within_reach():
    st = fresh(2)
    put_dice(st, "S02:B5 S03:A2")
    set_player(st, 0, provisions=3, reserve=[2])
    text = SPEC.render(st.view(0))
    assert "within reach (walking cost) and free spaces:" in text
    assert "S02(1) FD" in text and "S05(1) AM-SUN-x2 RS" in text
    assert "S03(" not in text and "S01(" not in text and "S24(" not in text
    assert "within reach" not in SPEC.render(st.view(1))   # not seat 1's decision


def test_an_emergency_turn_is_said_and_a_forced_one_explained():
    st = fresh(2)
    set_player(st, 0, reserve=[])
    assert "only an emergency turn is possible" in SPEC.render(st.view(0))
    set_player(st, 0, reserve=[3], overview=[2, 5])
    play(st, "emergency turn (+6 provisions, 1 die)")
    assert "emergency turn of seat 0 [A]" in SPEC.render(st.view(1))


def test_the_end_names_the_winner_and_the_final_sums():
    st = _played(3, 10_000, seed=5)
    assert st.is_terminal()
    winner = st.winners()[0]
    text = SPEC.render(st.view(None))
    assert f"game over: seat {winner} [{'ABC'[winner]}] wins with {st.scores()[winner]:g} points" in text
    assert "final: prestige + leftovers + sickle + tablets + amulet + sanctuaries = total" in text
    assert "you win" not in text
    assert "(you) win with" in SPEC.render(st.view(winner))


def test_tablet_conditions_are_shown_when_choosing_a_tablet():
    st = fresh(2)
    play(st, "move to S02 (cost 1)")
    play(st, "place die 1 on S02 space 1 (TB)")
    text = SPEC.render(st.view(0))
    assert "tablets (10 points each if met at the end):" in text
    offered = {t for t in st.view(0)["oracle_slots"] if t}
    assert all(f"{t} " in text for t in offered)


def test_actions_read_with_the_names_of_the_help_text():
    from nemeton.games.edora import actions as A
    assert str(A.ActivateHerb("H_KNOW", "H_LEAP")) == "activate the knowledge herb (the forest-leap herb face down)"
    assert str(A.TakeGem("VP", "SUN")) == "put the prestige gem on the SUN row"
    assert str(A.RuneStone("PRESTIGE_POINT")) == "place the prestige rune stone"
    assert str(A.RepeatReward("DIE")) == "take a die from the overview board once more"
    assert str(A.Brew("P3a")) == "brew P3a: +10 prestige"
    assert str(A.ArrangeHerb("H_VP", 0)) == "lay the prestige herb face down in herb circle 1"
