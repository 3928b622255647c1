"""ISMCTS with its playouts in the compiled kernel (``ismcts:engine=fast``): the search is the
reference's tree policy with the kernel's playouts, cut-offs and evaluations; decisions are
reproducible for a seed; the tree's statistics add up; it plays legal and sensible moves; a spec
the kernel cannot run is refused clearly. (That the decision never depends on the hidden truth
behind a view, and that the moves are legal, is tested for both engines in test_agents.py;
that the kernel's playouts, cut-offs and evaluations equal the reference's, in tests/kernel/.)"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from nemeton.agents.base import AgentSpecError, make_agent  # noqa: E402
from nemeton.agents.ismcts import ISMCTSAgent  # noqa: E402
from nemeton.engine import get_game  # noqa: E402

CASES = [("alarun", 2, {}), ("alarun", 3, {}), ("amarok", 3, {}), ("amarok", 4, {"teams": True}),
         ("edora", 2, {}), ("edora", 3, {})]
SETTINGS = ["", ":rollout=random:cutoff=none:prior=none", ":rollout=random:cutoff=round:prior=none",
            ":cutoff=leaf:prior=none"]


def _position(game, players, options, steps=7, seed=4):
    spec = get_game(game)
    state = spec.make(seed=seed, **{**spec.bot_defaults, **options, "players": players})
    rng = random.Random(seed)
    for _ in range(steps):
        p = state.current_player
        state.apply(rng.choice(state.legal_actions(p)), p)
    while len(state.legal_actions(state.current_player)) < 2:
        p = state.current_player
        state.apply(rng.choice(state.legal_actions(p)), p)
    return spec, state


def _stats(root):
    return sorted((repr(a), n.visits, round(n.reward, 9)) for a, n in root.children.items())


@pytest.mark.parametrize("game,players,options", CASES)
@pytest.mark.parametrize("setting", SETTINGS)
def test_the_tree_adds_up_and_the_same_seed_searches_the_same_tree(game, players, options, setting):
    spec, state = _position(game, players, options)
    seat = state.current_player
    view = state.view(seat)
    trees = []
    for _ in range(2):
        agent = make_agent(f"ismcts:iterations=60:engine=fast{setting}", spec, seat, seed=11)
        assert isinstance(agent, ISMCTSAgent) and agent.engine == "fast"
        root = agent.search(view)
        assert agent.last_iterations <= 60
        if not agent.last_settled:
            assert agent.last_iterations == 60
        # every iteration passes through one root child; each reward is a share of a win
        assert root.visits == agent.last_iterations == sum(n.visits for n in root.children.values())
        for node in root.children.values():
            assert 0.0 <= node.reward <= node.visits + 1e-9
        trees.append(_stats(root))
    assert trees[0] == trees[1]
    assert len(trees[0]) >= 2


@pytest.mark.parametrize("batch", [1, 3, 64])
def test_every_batch_size_searches_a_consistent_tree(batch):
    spec, state = _position("amarok", 4, {})
    seat = state.current_player
    agent = make_agent(f"ismcts:iterations=100:engine=fast:batch={batch}", spec, seat, seed=2)
    root = agent.search(state.view(seat))
    assert root.visits == agent.last_iterations
    assert agent.act(state.view(seat), state.legal_actions(seat)) in state.legal_actions(seat)
    # visits below the root add up too: a node's visits are its children's plus the
    # iterations that ended at it (a new leaf or the game's end)
    stack = [root]
    while stack:
        node = stack.pop()
        assert sum(c.visits for c in node.children.values()) <= node.visits
        stack.extend(node.children.values())


def test_a_time_budget_is_kept_and_the_kernel_is_loaded_before_the_clock_starts():
    import time
    spec, state = _position("edora", 2, {})
    seat = state.current_player
    agent = make_agent("ismcts:seconds=0.05:engine=fast", spec, seat, seed=1)
    agent.search(state.view(seat))  # loads the kernel
    started = time.perf_counter()
    agent.search(state.view(seat))
    assert time.perf_counter() - started < 0.5
    assert agent.last_iterations >= 8


@pytest.mark.parametrize("spec_text,message", [
    ("ismcts:engine=fast:epsilon=0.1:rollout=heuristic", "epsilon"),
    ("ismcts:engine=fast:batch=0", "batch"),
    ("ismcts:engine=fast:batch=5000", "batch"),
    ("ismcts:engine=turbo", "engine"),
])
def test_specs_the_kernel_cannot_run_are_refused(spec_text, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec_text, get_game("alarun"), 0, 0)


def test_the_label_names_the_engine_and_a_batch_other_than_the_default():
    spec = get_game("amarok")
    assert str(make_agent("ismcts:iterations=10:engine=fast", spec, 0, 0)).endswith(":engine=fast")
    assert str(make_agent("ismcts:iterations=10:engine=fast:batch=4", spec, 0, 0)).endswith(":engine=fast:batch=4")
    assert "engine" not in str(make_agent("ismcts:iterations=10", spec, 0, 0))


@pytest.mark.parametrize("name,players,at_least", [
    ("alarun", 2, 5 / 6),
    ("amarok", 3, 0.5),
    ("edora", 2, 5 / 6),
])
def test_fast_ismcts_beats_random_in_a_few_short_games(name, players, at_least):
    from nemeton.arena.pairing import head_to_head
    result = head_to_head(name, players, "ismcts:iterations=50:engine=fast", "random", 6, seed=0)
    assert result.share.mean >= at_least, result.to_json()


def test_root_parallel_helpers_search_with_the_kernel_too():
    spec, state = _position("alarun", 2, {})
    seat = state.current_player
    agent = make_agent("ismcts:iterations=80:engine=fast:workers=2", spec, seat, seed=3)
    try:
        assert agent._helper_settings()["engine"] == "fast"
        root = agent.search(state.view(seat))
        assert root.visits == agent.last_iterations
        assert agent.act(state.view(seat), state.legal_actions(seat)) in state.legal_actions(seat)
    finally:
        agent.close()


@pytest.mark.parametrize("game,players", [("alarun", 2), ("alarun", 4), ("edora", 2), ("edora", 3)])
def test_the_heuristic_prior_chosen_in_the_kernel_is_the_python_heuristics_choice(game, players):
    """engine=fast makes the prior's choice at a fresh node in a one-slot kernel: the same
    action the Python heuristic chooses (Edora's tie-breaks drawn from the same stream)."""
    import numpy as np

    from nemeton.agents.base import get_heuristic
    spec = get_game(game)
    heuristic = get_heuristic(game)
    agent = make_agent("ismcts:iterations=10:engine=fast:prior=heuristic", spec, 0, seed=1)
    checked = 0
    for seed in range(4):
        state = spec.make(seed=seed, **{**spec.bot_defaults, "players": players})
        rng = random.Random(seed)
        fast = agent._fast_playouts(state)
        assert fast.prior is not None
        while not state.is_terminal() and checked < 40 * (seed + 1):
            seat = state.current_player
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                words = random.Random(1000 + checked).getstate()[1]
                fast.prior_streams[0, seat, :] = np.array(words, dtype=np.uint32)
                expected = heuristic.choose_in_state(state.clone(), seat, list(legal), random.Random(1000 + checked))
                assert fast.heuristic_choice(state) == expected
                checked += 1
            state.apply(rng.choice(legal), seat)
    assert checked >= 100


def test_amarok_has_no_kernel_prior_and_keeps_the_python_heuristics():
    spec, state = _position("amarok", 4, {})
    agent = make_agent("ismcts:iterations=30:engine=fast:prior=heuristic", spec, state.current_player, seed=1)
    agent.search(state.view(state.current_player))
    assert agent._fast is not None and agent._fast.prior is None
    assert agent.last_iterations == 30 or agent.last_settled


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("game,players", [("alarun", 2), ("amarok", 4), ("edora", 2)])
def test_a_search_whose_time_ran_out_before_it_began_still_chooses_a_legal_move(game, players, engine):
    # on a loaded machine the deadline can pass while the search prepares its sampler: it
    # then still runs one iteration (it used to return a root without children, and the
    # move failed with "max() arg is an empty sequence")
    import time

    spec, state = _position(game, players, {})
    seat = state.current_player
    agent = make_agent(f"ismcts:seconds=0.2:engine={engine}", spec, seat, 3)
    agent.search(state.view(seat))  # makes the kernel and reads the settings
    root = agent.search_alone(state.view(seat), None, time.perf_counter() - 1.0)
    assert agent.last_iterations >= 1 and root.children
    legal = state.legal_actions(seat)
    assert set(root.children) <= set(legal)


def test_a_server_refuses_a_kernel_search_seat_on_options_the_kernel_does_not_implement():
    # an operator's ismcts:engine=fast seat in a room on another Edora board: the room is
    # refused when it is made, not broken at the seat's first move
    from nemeton.games.edora.board import standard_board_text
    from nemeton.server.agents import AgentPolicy
    spec = get_game("edora")
    policy = AgentPolicy({"strong": "ismcts:engine=fast:iterations=50"})
    policy.check("strong", spec, 1, spec.options(2))  # the standard board: the kernel plays it
    other = spec.options(2, board=standard_board_text().replace("start_provisions: 15", "start_provisions: 16"))
    with pytest.raises(AgentSpecError, match="engine=fast cannot play these options .*board.*engine=reference"):
        policy.check("strong", spec, 1, other)
    policy.check("strong", spec, 1, spec.options(2))
