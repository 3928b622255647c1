"""OpenSpiel Python games: OpenSpiel's random simulation test (with its serialisation round
trips), the seed drawn by chance nodes, its ISMCTS bot playing whole games through the
adapter, observations made from views, perfect-recall information states, illegal ids,
serialisation and pickling, resampling, the bots that run and those refused."""

from __future__ import annotations

import json
import pickle
import random

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from nemeton.engine import get_game  # noqa: E402
from nemeton.engine.errors import IllegalActionError, InputError  # noqa: E402
from nemeton.interop.openspiel import SEED_BYTES, load, make_bot  # noqa: E402

GAMES = [("alarun", {"players": 2}), ("alarun", {"players": 3}), ("alarun", {"players": 4, "action_cap": 2}),
         ("amarok", {"players": 3}), ("amarok", {"players": 4, "teams": True}), ("amarok", {"players": 5}),
         ("amarok", {"players": 6, "teams": True}), ("edora", {"players": 2}),
         ("edora", {"players": 3, "tablet_draft": True, "arranged_herbs": True}), ("edora", {"players": 4})]
IDS = [g + "-" + "-".join(f"{k}={v}" for k, v in p.items()) for g, p in GAMES]


def dealt(game, seed: int):
    """A new initial state with the seed's bytes applied at its chance nodes."""
    state = game.new_initial_state()
    for b in seed.to_bytes(SEED_BYTES, "big"):
        assert state.is_chance_node()
        state.apply_action(b)
    assert not state.is_chance_node()
    return state


def play_out(state, pick):
    """Plays to the end: chance outcomes sampled, players' actions from ``pick(state)``."""
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            state.apply_action(pick(state))
    return state


@pytest.mark.parametrize("game,params", GAMES, ids=IDS)
def test_openspiel_random_sim_test_passes_with_serialisation(game, params):
    pyspiel.random_sim_test(load(game, **params), num_sims=2, serialize=True, verbose=False)


def test_the_seed_is_drawn_by_four_chance_nodes_and_deals_the_engines_game():
    game = load("amarok", players=3)
    spec = get_game("amarok")
    state = game.new_initial_state()
    assert game.max_chance_outcomes() == 256
    for k, b in enumerate((0x12, 0x34, 0x56, 0x78)):
        assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
        assert state.chance_outcomes() == [(i, 1 / 256) for i in range(256)]
        assert state.legal_actions() == list(range(256))
        # nothing is dealt, and no seat learns the bytes drawn so far
        assert all(state.observation_string(p) == "null" for p in range(3))
        assert all(json.loads(state.information_state_string(p)) == {"seen": [], "view": None} for p in range(3))
        assert not any(state.observation_tensor(0)) and str(b) not in str(state)
        state.apply_action(b)
    engine = spec.new_state(game.options, 0x12345678)
    assert state.inner.to_json() == engine.to_json()
    assert state.history()[:SEED_BYTES] == [0x12, 0x34, 0x56, 0x78]
    assert json.loads(state.serialize()) == {"seed": 0x12345678, "actions": []}
    with pytest.raises(IllegalActionError, match="byte"):
        game.new_initial_state().apply_action(256)
    with pytest.raises(InputError, match="2\\^32"):
        game.deserialize_state('{"seed": 4294967296, "actions": []}')


def test_openspiels_own_serialisation_round_trips_every_kind_of_state():
    game = load("edora", players=2)
    partial = game.new_initial_state()
    partial.apply_action(7)
    state = dealt(game, 99)
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for s in (game.new_initial_state(), partial, state, sample):
        text = pyspiel.serialize_game_and_state(game, s)
        again_game, again = pyspiel.deserialize_game_and_state(text)
        assert str(again_game) == str(game) and str(again) == str(s) and again.history() == s.history()
        assert again.current_player() == s.current_player() and again.legal_actions() == s.legal_actions()
        assert game.deserialize_state(s.serialize()).serialize() == s.serialize()


def test_the_games_are_registered_with_their_options_as_parameters():
    for game in ("alarun", "amarok", "edora"):
        assert f"nemeton_{game}" in pyspiel.registered_names()
    game = pyspiel.load_game("nemeton_amarok", {"players": 4, "teams": True})
    assert game.num_players() == 4 and game.utility_sum() == 2.0
    assert game.num_distinct_actions() == len(get_game("amarok").action_space({"players": 4, "teams": True}))
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert load("alarun", players=2, action_cap=0).options.action_cap is None  # 0 = no cap
    assert load("amarok", deck="").options.deck is None                      # "" = the standard deck


def test_observations_are_the_players_view():
    game = load("amarok", players=3)
    state = dealt(game, 2)
    spec = get_game("amarok")
    for player in range(3):
        view = state.inner.view(player)
        assert json.loads(state.observation_string(player)) == view
        assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32), spec.observe(view))


def test_the_information_state_is_the_seats_log_and_view_and_no_tensor_is_claimed():
    game = load("amarok", players=3)
    assert game.get_type().provides_information_state_string
    assert not game.get_type().provides_information_state_tensor
    state = dealt(game, 2)
    rng = random.Random(2)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    for player in range(3):
        info = json.loads(state.information_state_string(player))
        assert info["view"] == state.inner.view(player)
        log = [{k: v for k, v in e.items() if k not in ("text", "parts", "msg")} for e in state.inner.log(player)]
        assert info["seen"] == log
    # each seat's own hand is in its history and in no other seat's
    hands = [e for e in json.loads(state.information_state_string(0))["seen"] if e["kind"] == "hand_dealt"]
    assert "cards" in hands[0] and all("cards" not in e for e in hands[1:])


def test_information_states_have_perfect_recall_each_one_extends_the_one_before():
    for game, params in GAMES[::2]:
        state = dealt(load(game, **params), 7)
        rng = random.Random(7)
        players = state.num_players()
        before = [json.loads(state.information_state_string(p))["seen"] for p in range(players)]
        for _ in range(40):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            now = [json.loads(state.information_state_string(p))["seen"] for p in range(players)]
            assert all(now[p][:len(before[p])] == before[p] and len(now[p]) > len(before[p])
                       for p in range(players))  # every step is seen: two histories never merge
            before = now


def test_an_illegal_action_id_raises_and_changes_nothing():
    game = load("edora", players=2)
    state = dealt(game, 8)
    state.apply_action(state.legal_actions()[0])
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before, history = state.serialize(), state.history()
    with pytest.raises(IllegalActionError, match=f"action id {illegal} .* is not legal for seat"):
        state.apply_action(illegal)
    assert state.history() == history and state.serialize() == before
    assert state.inner.to_json() == game.deserialize_state(before).inner.to_json()


@pytest.mark.parametrize("game,params", GAMES, ids=IDS)
def test_states_serialise_as_seed_and_actions_and_pickle(game, params):
    os_game = load(game, **params)
    state = dealt(os_game, 9)
    rng = random.Random(9)
    for step in range(30):
        if step % 7 == 0 or state.is_terminal():
            text = state.serialize()
            assert set(json.loads(text)) == {"seed", "actions"}
            copy = os_game.deserialize_state(text)
            assert json.loads(text)["actions"] == state.history()[SEED_BYTES:]
            assert copy.inner.to_json() == state.inner.to_json() and copy.history() == state.history()
            assert all(copy.information_state_string(p) == state.information_state_string(p)
                       for p in range(state.num_players()))
            pickled = pickle.loads(pickle.dumps(state))
            assert pickled.inner.to_json() == state.inner.to_json() and str(pickled) == str(state)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(os_game))
    assert str(again) == str(os_game) and again.num_distinct_actions() == os_game.num_distinct_actions()


def test_a_sample_serialises_as_its_full_state_with_the_history_it_keeps():
    game = load("alarun", players=3)
    state = dealt(game, 10)
    for _ in range(4):
        state.apply_action(state.legal_actions()[-1])
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    copy = game.deserialize_state(sample.serialize())
    assert copy.inner.to_json() == sample.inner.to_json()
    assert copy.information_state_string(player) == state.information_state_string(player)
    with pytest.raises(InputError, match="seed"):
        game.deserialize_state('{"actions": []}')


def test_resampling_from_an_infostate_keeps_the_players_information_and_redeals_the_rest():
    game = load("amarok", players=4)
    state = dealt(game, 3)
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(20)]
    assert all(s.information_state_string(player) == state.information_state_string(player) for s in samples)
    assert all(s.legal_actions() == state.legal_actions() for s in samples)
    hidden = {json.dumps(s.inner.view(None)) + json.dumps(s.inner.to_json()["deck"]) for s in samples}
    assert len(hidden) > 1  # the cards the player cannot see are dealt anew


def test_clones_are_independent_and_continue_alike():
    game = load("edora", players=2)
    state = dealt(game, 4)
    rng = random.Random(4)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    action = state.legal_actions()[0]
    copy.apply_action(action)
    assert copy.history() != state.history()
    state.apply_action(action)
    assert copy.inner.to_json() == state.inner.to_json()  # same stream: same chance outcomes


SMALLEST = [("alarun", {"players": 2}), ("amarok", {"players": 4}), ("edora", {"players": 2})]


@pytest.mark.parametrize("game,params", SMALLEST, ids=["alarun", "amarok", "edora"])
def test_openspiels_ismcts_bot_plays_whole_games(game, params):
    from open_spiel.python.algorithms import ismcts, mcts
    os_game = load(game, **params)
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(os_game, mcts.RandomRolloutEvaluator(1, rs), 0.7, max_simulations=3, random_state=rs)
    returns = play_out(os_game.new_initial_state(), bot.step).returns()
    assert max(returns) > 0 and sum(returns) == pytest.approx(os_game.utility_sum())


def test_a_clone_while_the_seed_is_drawn_deals_the_same_game_from_the_same_bytes():
    game = load("amarok", players=3)
    state = game.new_initial_state()
    state.apply_action(1)
    copy = state.clone()
    for b in (2, 3, 4):
        state.apply_action(b)
        copy.apply_action(b)
    assert copy.inner.to_json() == state.inner.to_json()
    assert dealt(game, 0x01020305).inner.to_json()["hands"] != state.inner.to_json()["hands"]


@pytest.mark.parametrize("game,params", SMALLEST, ids=["alarun", "amarok", "edora"])
def test_openspiels_python_ismcts_and_determinized_mcts_play_a_few_moves(game, params):
    os_game = load(game, **params)
    state = dealt(os_game, 12)
    bots = {name: make_bot(name, os_game, 0, simulations=4, seed=12) for name in ("ismcts", "mcts")}
    for step in range(6):
        player, before = state.current_player(), state.serialize()
        action = bots["ismcts" if step % 2 else "mcts"].step(state)
        assert state.serialize() == before  # the bots search on copies and samples
        assert action in state.legal_actions(player)
        state.apply_action(action)
    assert len(state.history()) == SEED_BYTES + 6


@pytest.mark.parametrize("game,params", SMALLEST, ids=["alarun", "amarok", "edora"])
def test_cfr_preconditions_perfect_recall_claimed_and_full_tree_solvers_refused(game, params):
    from open_spiel.python.algorithms import outcome_sampling_mccfr
    os_game = load(game, **params)
    kind = os_game.get_type()
    assert kind.provides_information_state_string and kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    for name in ("cfr", "cfr_plus", "cpp_ismcts", "cpp_mcts"):
        with pytest.raises(InputError, match=f"{name} cannot run on the Nemeton games"):
            make_bot(name, os_game, 0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(os_game)  # samples a deal each iteration
    solver.iteration()
    assert solver._infostates  # keyed by the perfect-recall information-state strings
    assert all(key.startswith('{"seen":[') for key in solver._infostates)


def test_make_bot_names_the_bots_it_knows():
    with pytest.raises(InputError, match="'ismcts' or 'mcts'"):
        make_bot("alphazero", load("edora", players=2), 0)
