"""Tournaments: the same seed gives the same games whatever the workers; interrupted runs
resume; sequential stopping; the output directory."""

from __future__ import annotations

import json

import pytest

from nemeton.arena.tournament import TournamentConfig, TournamentError, load_tournament, run_tournament

TIMING = {"seconds"}  # think time: the only part of a game that depends on the machine


def games(t) -> list[dict]:
    return [{k: v for k, v in o.to_json().items() if k not in TIMING} for o in t.outcomes]


@pytest.fixture(scope="module")
def config():
    return TournamentConfig.build("amarok", 4, ["heuristic", "random"], seed=5, options={"teams": True})


def test_the_same_seed_gives_the_same_games_on_one_or_two_workers(config):
    one = run_tournament(config, 16, workers=1)
    two = run_tournament(config, 16, workers=2)
    assert games(one) == games(two)
    assert [o.index for o in two.outcomes] == list(range(16))
    assert games(run_tournament(config.__class__.build("amarok", 4, ["heuristic", "random"], seed=6,
                                                       options={"teams": True}), 16, workers=1)) != games(one)


def test_an_interrupted_tournament_resumes_without_replaying_finished_games(config, tmp_path):
    out = tmp_path / "t"

    def stop_after_five(done, total):
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, 20, workers=2, out=out, progress=stop_after_five)
    stored = sorted(p.name for p in (out / "games").glob("*.json"))
    assert len(stored) >= 5
    before = {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.json")}
    resumed = run_tournament(config, 20, workers=2, out=out)
    assert resumed.played == 20 - len(stored)
    assert all((out / "games" / name).stat().st_mtime_ns == mtime for name, mtime in before.items())
    assert games(resumed) == games(run_tournament(config, 20, workers=1))
    assert games(load_tournament(out)) == games(resumed)
    again = run_tournament(config, 20, workers=2, out=out)
    assert again.played == 0


def test_every_stored_game_replays_to_its_scores(config, tmp_path):
    t = run_tournament(config, 4, workers=1, out=tmp_path / "t")
    for path in sorted((tmp_path / "t" / "games").glob("*.json")):
        data = json.loads(path.read_text())
        from nemeton.arena.tournament import GameOutcome
        outcome = GameOutcome.from_json(data)
        assert outcome.replay().scores() == outcome.scores
    assert len(t.outcomes) == 4


def test_a_directory_of_another_tournament_is_refused_and_left_unchanged(config, tmp_path):
    run_tournament(config, 2, workers=1, out=tmp_path / "t")
    other = TournamentConfig.build("amarok", 4, ["heuristic", "random"], seed=99, options={"teams": True})
    meta = (tmp_path / "t" / "tournament.json").read_text()
    with pytest.raises(TournamentError, match="another tournament"):
        run_tournament(other, 2, out=tmp_path / "t")
    assert (tmp_path / "t" / "tournament.json").read_text() == meta
    assert len(list((tmp_path / "t" / "games").glob("*.json"))) == 2


def test_the_agents_settings_are_stored_with_the_defaults_the_options_refine(tmp_path):
    edora = TournamentConfig.build("edora", 2, ["ismcts:iterations=3", "random"], seed=1)
    stored = edora.to_json()["settings"]
    assert stored[0]["widen"] == 0.5 and stored[0]["iterations"] == 3 and stored[1] == {}
    three = TournamentConfig.build("edora", 3, ["ismcts:iterations=3", "random"], seed=1)
    assert three.to_json()["settings"][0]["widen"] == 0.0   # widening is the 2-player default only


def test_a_directory_played_by_agents_whose_defaults_changed_is_refused_and_left_unchanged(tmp_path):
    config = TournamentConfig.build("amarok", 3, ["ismcts:iterations=5", "random"], seed=3)
    run_tournament(config, 2, workers=1, out=tmp_path / "t")
    meta_path = tmp_path / "t" / "tournament.json"
    meta = json.loads(meta_path.read_text())
    meta["settings"][0]["c"] = 1.4   # as if the default exploration had been 1.4 when they were played
    meta_path.write_text(json.dumps(meta))
    before = meta_path.read_text()
    with pytest.raises(TournamentError, match=r"defaults have changed.*ismcts:iterations=5: c"):
        run_tournament(config, 4, out=tmp_path / "t")
    assert meta_path.read_text() == before
    assert len(list((tmp_path / "t" / "games").glob("*.json"))) == 2
    assert len(load_tournament(tmp_path / "t").outcomes) == 2   # reading it back is allowed
    # a directory from before settings were stored resumes on its specs alone
    del meta["settings"]
    meta_path.write_text(json.dumps(meta))
    assert len(run_tournament(config, 4, out=tmp_path / "t").outcomes) == 4


def test_sequential_stopping_decides_at_the_same_block_whatever_the_workers(config):
    one = run_tournament(config, 200, workers=1, until_decided=0.65)
    two = run_tournament(config, 200, workers=2, until_decided=0.65)
    assert one.decision.verdict == "above" and one.decision.games < 200
    assert len(one.outcomes) == one.decision.games == two.decision.games
    assert games(one) == games(two)
    assert one.decision.interval.low > 0.65


def test_a_focal_pairing_that_cannot_be_decided_runs_to_its_game_limit():
    evens = TournamentConfig.build("amarok", 3, ["random", "random"], seed=1, lineup="focal")
    t = run_tournament(evens, 30, workers=1, until_decided=1 / 3)
    assert t.decision.verdict is None and len(t.outcomes) == 30
    assert t.decision.interval.low < 1 / 3 < t.decision.interval.high


def test_bad_tournaments_fail_before_any_game():
    from nemeton.agents.base import AgentSpecError
    from nemeton.engine import InvalidOptionsError
    with pytest.raises(AgentSpecError):
        TournamentConfig.build("amarok", 4, ["heuristic", "ismcts:iteratons=5"])
    with pytest.raises(InvalidOptionsError):
        TournamentConfig.build("amarok", 4, ["heuristic"], options={"teams": "maybe"})
    with pytest.raises(AgentSpecError):
        TournamentConfig.build("amarok", 4, ["human", "random"])


@pytest.mark.parametrize("text", ["[1, 2]", '"x"', "null"])
def test_a_tournament_file_that_is_not_an_object_is_refused(config, tmp_path, text):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "tournament.json").write_text(text)
    with pytest.raises(TournamentError, match="another tournament"):
        run_tournament(config, 1, out=tmp_path / "t")
    assert (tmp_path / "t" / "tournament.json").read_text() == text
