"""Seats as structured references: sentences name seats with markers (``seat_ref``), and
every log entry and error carries ``parts`` (strings and ``{"seat": n}``) beside its plain
text, so that clients show the players' names and never parse English."""

from __future__ import annotations

import pickle
import re

import pytest

import nemeton
from nemeton.engine.errors import IllegalActionError, InvalidOptionsError, NemetonError, RecordError
from nemeton.engine.log import ENTRY_KEYS, render_parts, seat_ref, split_parts, who

INDEX = re.compile(r"\b[Ss]eats? \d")
MARK = re.compile("[\ue000\ue001]")


# ----- the units -------------------------------------------------------------------------
def test_seat_ref_is_a_private_use_marker():
    assert seat_ref(2) == "\ue0002\ue001"
    assert who(2, 0) == seat_ref(2) and who(2, 0, capital=True) == seat_ref(2)
    assert who(0, 0) == "you" and who(0, 0, capital=True) == "You"
    assert who(None, 0) == "the game" and who(None, 1, capital=True) == "The game"


def test_split_parts_gives_plain_text_and_parts():
    text = f"{seat_ref(2)} takes the card of {seat_ref(0)}. {seat_ref(1)}'s turn"
    plain, parts = split_parts(text, 3)
    assert plain == "Seat 2 takes the card of seat 0. Seat 1's turn"
    assert parts == [{"seat": 2}, " takes the card of ", {"seat": 0}, ". ", {"seat": 1}, "'s turn"]
    assert render_parts(parts, ["Ann", "Bob", "Cid"]) == "Cid takes the card of Ann. Bob's turn"
    assert render_parts(parts, lambda s: f"<{s}>") == "<2> takes the card of <0>. <1>'s turn"
    assert render_parts(parts, {0: "A", 1: "B", 2: "C"}) == "C takes the card of A. B's turn"


def test_split_parts_without_markers_and_empty():
    assert split_parts("You pass.") == ("You pass.", ["You pass."])
    assert split_parts("") == ("", [])
    assert split_parts(seat_ref(0)) == ("Seat 0", [{"seat": 0}])
    assert split_parts(f"{seat_ref(0)}{seat_ref(1)}", 2)[1] == [{"seat": 0}, {"seat": 1}]


def test_split_parts_capital_only_where_a_sentence_starts():
    assert split_parts(f"the team of {seat_ref(1)} and {seat_ref(3)} wins")[0] == "the team of seat 1 and seat 3 wins"
    assert split_parts(f"Round over: {seat_ref(1)} wins")[0] == "Round over: seat 1 wins"
    assert split_parts(f"{seat_ref(1)} may not act", capital=False)[0] == "seat 1 may not act"


@pytest.mark.parametrize("text,players,plain,parts", [
    # a number that is not a seat: plain text without the marker characters
    ("\ue0009\ue001 wins", 4, "9 wins", ["9 wins"]),
    ("x \ue00012\ue001 y \ue0001\ue001", 4, "x 12 y seat 1", ["x 12 y ", {"seat": 1}]),
    # stray marker characters, a marker around something that is no number, leading zeros
    ("a\ue000b\ue001c", None, "abc", ["abc"]),
    ("\ue001\ue000\ue000", None, "", []),
    ("\ue000-1\ue001 and \ue00001\ue001", 4, "-1 and 01", ["-1 and 01"]),
    ("\ue000\ue0002\ue001\ue001!", 4, "Seat 2!", [{"seat": 2}, "!"]),
    # a huge number never becomes a seat (nor an int too long to convert)
    ("\ue000" + "9" * 5000 + "\ue001", None, "9" * 5000, ["9" * 5000]),
])
def test_split_parts_with_hostile_text(text, players, plain, parts):
    got_plain, got_parts = split_parts(text, players)
    assert (got_plain, got_parts) == (plain, parts)
    assert not MARK.search(got_plain)
    assert all(not MARK.search(p) for p in got_parts if isinstance(p, str))
    assert all(p for p in got_parts if isinstance(p, str))  # no empty string


def test_adjacent_strings_are_merged():
    _, parts = split_parts("a\ue000x\ue001b\ue0007\ue001c", 3)
    assert parts == ["axb7c"]


# ----- errors ----------------------------------------------------------------------------
def test_errors_split_their_message_and_pickle():
    exc = IllegalActionError(f"{seat_ref(1)} may not act now; acting: {seat_ref(0)}")
    assert str(exc) == "seat 1 may not act now; acting: seat 0"
    assert exc.parts == [{"seat": 1}, " may not act now; acting: ", {"seat": 0}]
    for error in (exc, RecordError("plain"), NemetonError(), InvalidOptionsError("bad \ue000x")):
        twin = pickle.loads(pickle.dumps(error))
        assert type(twin) is type(error) and str(twin) == str(error) and twin.parts == error.parts
        assert not MARK.search(str(twin))
    assert str(InvalidOptionsError("bad \ue000x")) == "bad x"


def test_a_marker_in_an_option_value_echoed_in_an_error_is_no_seat():
    with pytest.raises(InvalidOptionsError) as caught:
        nemeton.make("amarok", players=3, rounds_to_win=f"{seat_ref(1)}")
    assert not any(isinstance(p, dict) for p in caught.value.parts)
    assert not MARK.search(str(caught.value))


def test_entry_keys_include_parts():
    assert "parts" in ENTRY_KEYS and "text" in ENTRY_KEYS


# ----- every event kind of every game, for every viewer ----------------------------------
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]

# Player counts and options that bring out every kind (Alarún's cap, Amarok's teams, Edora's
# variants); the configurations are played in turn, seed after seed, until every kind is seen.
CONFIGS = {
    "alarun": [(2, {"action_cap": 4}), (3, {}), (4, {})],
    "amarok": [(3, {}), (4, {"teams": True}), (5, {}), (6, {"teams": True, "partner_hand": True}),
               (4, {"teams": True, "partner_hand": True})],
    "edora": [(2, {"tablet_draft": True, "arranged_herbs": True}), (3, {"shared_herbs": True}),
              (4, {"shared_dice": True}), (2, {}),
              (3, {"arranged_herbs": True, "revisit_sanctuaries": True, "fire_pit_scoring": "summary"})],
}
MAX_GAMES = 80


def _random_game(game: str, players: int, seed: int, **options):
    import random
    state = nemeton.make(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal() and steps < 4000:
        seat = rng.choice(list(state.acting()))
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        steps += 1
    return state


def _check_entry(state, entry, viewer):
    players = state.num_players
    names = NAMES[:players]
    where = f"{state.game_name} {entry['kind']} #{entry['i']} for viewer {viewer}"
    assert not MARK.search(entry["text"]), where
    rendered = render_parts(entry["parts"], names)
    assert not INDEX.search(rendered), f"{where}: {rendered}"
    assert not MARK.search(rendered), where
    assert all(p for p in entry["parts"] if isinstance(p, str)), where
    seats = [p["seat"] for p in entry["parts"] if isinstance(p, dict)]
    assert all(0 <= s < players and s != viewer for s in seats), f"{where}: {entry['parts']}"
    # the text and parts come from the game's sentence (the plain text is today's text)
    bare = {k: v for k, v in entry.items() if k not in ("text", "parts")}
    assert split_parts(state.event_text(bare, viewer), players) == (entry["text"], entry["parts"]), where
    # the seat that acted (and the player an effect concerns) is named: by name, or "you"
    for key in ("seat", "player"):
        s = entry.get(key)
        if type(s) is int:
            if s == viewer:
                assert re.search(r"\b[Yy]ou(r)?\b", rendered), f"{where}: {key} {s} not told: {rendered}"
            else:
                assert {"seat": s} in entry["parts"], f"{where}: {key} {s} not named: {rendered}"
                assert names[s] in rendered, where


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_every_event_kind_names_seats_by_reference_for_every_viewer(game):
    spec = nemeton.get_game(game)
    unseen = set(spec.event_kinds)
    configs = CONFIGS[game]
    for k in range(MAX_GAMES):
        players, options = configs[k % len(configs)]
        state = _random_game(game, players, k, **options)
        kinds = {e.kind for e in state.events}
        if not kinds & unseen and k >= len(configs):
            continue  # nothing new: skip checking this game's logs again
        for viewer in [None, *range(players)]:
            for entry in state.log(viewer):
                _check_entry(state, entry, viewer)
        unseen -= kinds
        if not unseen:
            break
    assert not unseen, f"{game}: event kinds never seen in {MAX_GAMES} games: {sorted(unseen)}"


def test_amarok_teams_are_named_by_their_members():
    state = _random_game("amarok", 4, 1, teams=True)
    ends = [e for e in state.log(1) if e["kind"] == "game_end"]
    assert ends
    rendered = render_parts(ends[0]["parts"], NAMES[:4])
    assert ("your team (you and Dee)" in rendered) or ("the team of Ann and Cid" in rendered), rendered


def test_alarun_names_cards_as_the_rulebook_does():
    state = nemeton.make("alarun", players=2, seed=3)
    text = " ".join(e["text"] for e in state.log(0))
    assert not re.search(r"[a-z_]+:[a-z]+", text), text       # no fungi_magica:orange
    assert re.search(r"(Fungi magica|Moon berries|Calendula|Phoenix feathers|Dragon eggs|Mandrake|Myrrh) "
                     r"\((blue|green|orange|pink|red|white|yellow)\)", text), text
    dealt = [e for e in state.log(0) if e["kind"] == "hand_dealt" and "cards" in e][0]
    assert all(":" in c for c in dealt["cards"])               # the fields keep their ids


# ----- refusals that name seats ----------------------------------------------------------
def _named(exc: NemetonError, players: int, seats: set[int]) -> str:
    rendered = render_parts(exc.parts, NAMES[:players])
    assert not MARK.search(str(exc))
    assert not INDEX.search(rendered), rendered
    assert seats <= {p["seat"] for p in exc.parts if isinstance(p, dict)}, exc.parts
    twin = pickle.loads(pickle.dumps(exc))
    assert str(twin) == str(exc) and twin.parts == exc.parts
    return rendered


def _an_action_not_legal_now(game: str, players: int):
    """A state, its acting seat, an action of the game that this seat may not take now and
    the actions seen legal on the way."""
    import random
    state = nemeton.make(game, players=players, seed=4)
    rng = random.Random(4)
    seen = []
    for _ in range(400):
        seat = rng.choice(list(state.acting()))
        legal = state.legal_actions(seat)
        outside = [a for a in seen if a not in legal]
        if outside and len(state.acting()) == 1:
            return state, seat, outside[0], seen
        seen += [a for a in legal if a not in seen]
        state.apply(rng.choice(legal), seat)
    raise AssertionError("no illegal action found")


@pytest.mark.parametrize("game,players", [("alarun", 3), ("amarok", 4), ("edora", 3)])
def test_the_engines_and_the_tables_refusals_name_seats_by_reference(game, players):
    from nemeton.agents.base import make_agent
    from nemeton.table import Table, TableError
    spec = nemeton.get_game(game)
    state, seat, illegal, seen = _an_action_not_legal_now(game, players)
    other = next(s for s in range(players) if s not in state.acting())
    legal = state.legal_actions(seat)
    # acting out of turn
    with pytest.raises(IllegalActionError) as caught:
        state.apply(legal[0], other)
    assert _named(caught.value, players, {other, seat}).startswith(f"{NAMES[other]} may not act now")
    # an illegal action: the seat and the legal actions (an Amarok action names a seat too)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(illegal, seat)
    assert f"is not legal for {NAMES[seat]} now" in _named(caught.value, players, {seat})
    # describing an action not taken
    with pytest.raises(IllegalActionError) as caught:
        state.describe_action(other, next(a for a in seen if (other, a) not in state.history), None)
    _named(caught.value, players, {other})
    # the table: an agent's seat, a person's seat that may not act, an illegal action, run()
    people = {seat, other}
    seats = [None if s in people else make_agent("random", spec, s, s) for s in range(players)]
    table = Table(state, seats)
    agent_seat = next(s for s in range(players) if s not in people)
    with pytest.raises(IllegalActionError) as caught:
        table.submit(agent_seat, legal[0])
    assert _named(caught.value, players, {agent_seat}).startswith(f"{NAMES[agent_seat]} is played by agent")
    with pytest.raises(IllegalActionError) as caught:
        table.submit(other, legal[0])
    _named(caught.value, players, {other, seat})
    with pytest.raises(IllegalActionError) as caught:
        table.submit(seat, illegal)
    _named(caught.value, players, {seat})
    with pytest.raises(TableError) as caught:
        table.run()
    _named(caught.value, players, {seat})


def test_amarok_actions_describe_themselves_with_markers():
    from nemeton.games.amarok.actions import ClawHand, TakeSeen, TakeUnseen
    take = TakeSeen(2, "R3")
    assert str(take) == "take R3 from seat 2's hand"
    assert split_parts(take.marked())[1] == ["take R3 from ", {"seat": 2}, "'s hand"]
    assert render_parts(split_parts(TakeUnseen(1).marked())[1], NAMES) == "take an unseen card from Bob's hand"
    assert render_parts(split_parts(ClawHand(3, 1).marked())[1], NAMES) == "claw the card in Dee's hand slot 1"


def test_renderers_name_players_when_given_names():
    for game, players in (("alarun", 3), ("amarok", 4), ("edora", 3)):
        spec = nemeton.get_game(game)
        state = _random_game(game, players, 2)
        for viewer in [None, *range(players)]:
            view = state.view(viewer)
            named = spec.render(view, names=NAMES[:players])
            assert not INDEX.search(named) and not MARK.search(named), (game, viewer)
            assert all(name in named for name in NAMES[:players]), (game, viewer)
            plain = spec.render(view)                       # other callers: "seat n", no marker
            assert not MARK.search(plain) and re.search(r"\bseat \d", plain)


def test_an_unknown_option_name_holding_a_marker_or_a_surrogate_is_quoted_escaped():
    for name in ("\ue0001\ue001x", "\ud800"):
        with pytest.raises(InvalidOptionsError) as info:
            nemeton.make("alarun", players=2, **{name: 1})
        assert all(isinstance(p, str) for p in info.value.parts)  # no seat made up from the name
        text = str(info.value)
        assert "\ue000" not in text and "\ud800" not in text and "\\u" in text
        text.encode("utf-8")  # the message can be sent
