"""OpenSpiel Python games: OpenSpiel's random simulation test, its ISMCTS bot playing whole
games through the adapter, strings and tensors made from views, resampling."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from nemeton.engine import get_game  # noqa: E402
from nemeton.interop.openspiel import load  # noqa: E402

GAMES = [("alarun", {"players": 2}), ("alarun", {"players": 4, "action_cap": 2}), ("amarok", {"players": 3}),
         ("amarok", {"players": 6, "teams": True}), ("edora", {"players": 2}),
         ("edora", {"players": 3, "tablet_draft": True, "arranged_herbs": True})]
IDS = [g + "-" + "-".join(f"{k}={v}" for k, v in p.items()) for g, p in GAMES]


@pytest.mark.parametrize("game,params", GAMES, ids=IDS)
def test_openspiel_random_sim_test_passes(game, params):
    pyspiel.random_sim_test(load(game, rng_seed=1, **params), num_sims=2, serialize=False, verbose=False)


def test_the_games_are_registered_with_their_options_as_parameters():
    for game in ("alarun", "amarok", "edora"):
        assert f"nemeton_{game}" in pyspiel.registered_names()
    game = pyspiel.load_game("nemeton_amarok", {"players": 4, "teams": True})
    assert game.num_players() == 4 and game.utility_sum() == 2.0
    assert game.num_distinct_actions() == len(get_game("amarok").action_space({"players": 4, "teams": True}))
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert load("alarun", players=2, action_cap=0).options.action_cap is None  # 0 = no cap
    assert load("amarok", deck="").options.deck is None                      # "" = the standard deck


def test_strings_and_tensors_are_the_players_view():
    game = load("amarok", players=3, rng_seed=2)
    state = game.new_initial_state()
    spec = get_game("amarok")
    for player in range(3):
        view = state.inner.view(player)
        assert json.loads(state.information_state_string(player)) == view
        assert json.loads(state.observation_string(player)) == view
        assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32), spec.observe(view))
        assert np.array_equal(np.asarray(state.information_state_tensor(player), dtype=np.float32),
                              spec.observe(view))


def test_resampling_from_an_infostate_keeps_the_players_information_and_redeals_the_rest():
    game = load("amarok", players=4, rng_seed=3)
    state = game.new_initial_state()
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
    game = load("edora", players=2, rng_seed=4)
    state = game.new_initial_state()
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


@pytest.mark.parametrize("game,params", [("alarun", {"players": 2}), ("amarok", {"players": 4}),
                                         ("edora", {"players": 2})], ids=["alarun", "amarok", "edora"])
def test_openspiels_ismcts_bot_plays_whole_games(game, params):
    from open_spiel.python.algorithms import ismcts, mcts
    os_game = load(game, rng_seed=5, **params)
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(os_game, mcts.RandomRolloutEvaluator(1, rs), 0.7, max_simulations=3, random_state=rs)
    state = os_game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    returns = state.returns()
    assert max(returns) > 0 and sum(returns) == pytest.approx(os_game.utility_sum())


def test_a_clone_of_a_new_initial_state_is_the_same_deal_and_a_new_state_another():
    game = load("amarok", players=3, rng_seed=6)
    state = game.new_initial_state()
    copy = state.clone()  # before the state was dealt: it deals when first used
    assert copy.inner.to_json() == state.inner.to_json()
    assert game.new_initial_state().inner.to_json()["hands"] != state.inner.to_json()["hands"]
