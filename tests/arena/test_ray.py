"""The Ray backend plays the same games as local processes (one local Ray instance for the module)."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")

from nemeton.arena.tournament import TournamentConfig, run_tournament  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_and_local_processes_give_identical_results_and_the_same_decision(local_ray):
    config = TournamentConfig.build("amarok", 3, ["ismcts:iterations=30", "random"], seed=4, lineup="focal")
    local = run_tournament(config, 30, workers=2, until_decided=1 / 3)
    remote = run_tournament(config, 30, workers=2, backend="ray", until_decided=1 / 3)
    strip = lambda t: [{k: v for k, v in o.to_json().items() if k != "seconds"} for o in t.outcomes]  # noqa: E731
    assert strip(remote) == strip(local)
    assert remote.decision.to_json() == local.decision.to_json()
