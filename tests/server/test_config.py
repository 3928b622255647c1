"""Configuration: every `nemeton serve` flag from an environment variable (the same checks
and messages), the data directory from platformdirs (with $NEMETON_DATA, and a database left
in the old place still used), and /docs served whole by the server (nothing from a CDN)."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from nemeton.cli import app as cli
from nemeton.server import app as server_app
from nemeton.server import paths

from conftest import TestClient


@pytest.fixture
def started(monkeypatch):
    """`nemeton serve` up to uvicorn.run: what it would run, never a server."""
    import uvicorn
    seen: dict = {}

    def fake_create_app(*args, **kwargs):
        seen["app_args"], seen["app_kwargs"] = args, kwargs
        return "app"

    monkeypatch.setattr(server_app, "create_app", fake_create_app)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(run=kw))
    return seen


def serve(env, *args):
    clean = {k: None for k in os.environ if k.startswith("NEMETON_") and k != "NEMETON_DATA"}
    return CliRunner().invoke(cli, ["serve", *args], env={**clean, **env})


def test_every_flag_is_read_from_its_environment_variable(started, tmp_path):
    result = serve({"NEMETON_DATABASE_URL": f"sqlite:///{tmp_path}/x.db", "NEMETON_HOST": "0.0.0.0",
                    "NEMETON_PORT": "8123", "NEMETON_AGENT_THREADS": "3", "NEMETON_RATE_LIMIT": "7",
                    "NEMETON_AGENT": "quick=random, strong=ismcts:iterations=50\ncalm=heuristic",
                    "NEMETON_FORWARDED_ALLOW_IPS": "10.0.0.1", "NEMETON_EXPIRE_AFTER": "3",
                    "NEMETON_METRICS": "1", "NEMETON_LOG_FORMAT": "json"})
    assert result.exit_code == 0, result.output
    args, kwargs = started["app_args"], started["app_kwargs"]
    assert args[0] == f"sqlite:///{tmp_path}/x.db" and args[1] == 3 and args[2] == (7.0, 28.0)
    assert [a.name for a in kwargs["agents"].offered] == ["quick", "strong", "calm"]
    assert kwargs["expire_after"] == 3 and kwargs["metrics"] is True
    run = started["run"]
    assert run["host"] == "0.0.0.0" and run["port"] == 8123 and run["forwarded_allow_ips"] == "10.0.0.1"
    assert run["log_config"]["handlers"]["default"]["formatter"] == "json"
    assert "x.db" in result.output


def test_the_defaults_without_flags_or_variables(started):
    result = serve({})
    assert result.exit_code == 0, result.output
    assert started["app_kwargs"]["metrics"] is None  # only on loopback, to direct clients
    assert started["run"]["log_config"]["handlers"]["default"]["formatter"] == "text"
    assert started["run"]["host"] == "127.0.0.1" and started["run"]["port"] == 8000


@pytest.mark.parametrize("value,expected", [("0", False), ("false", False), ("1", True), ("true", True)])
def test_metrics_are_turned_on_or_off_by_their_variable(started, value, expected):
    result = serve({"NEMETON_METRICS": value})
    assert result.exit_code == 0, result.output
    assert started["app_kwargs"]["metrics"] is expected


def test_a_flag_wins_over_its_variable(started):
    result = serve({"NEMETON_PORT": "8123", "NEMETON_EXPIRE_AFTER": "0", "NEMETON_METRICS": "1",
                    "NEMETON_LOG_FORMAT": "json"}, "--port", "9000", "--no-metrics", "--log-format", "text")
    assert result.exit_code == 0, result.output
    assert started["run"]["port"] == 9000 and started["app_kwargs"]["metrics"] is False
    assert started["run"]["log_config"]["handlers"]["default"]["formatter"] == "text"
    assert started["app_kwargs"]["expire_after"] is None and "never expire" in result.output


@pytest.mark.parametrize("variable,flag,value,message", [
    ("NEMETON_PORT", "--port", "eighty", "Invalid value for '--port'"),
    ("NEMETON_PORT", "--port", "70000", "Invalid value for '--port'"),
    ("NEMETON_AGENT_THREADS", "--agent-threads", "0", "Invalid value for '--agent-threads'"),
    ("NEMETON_RATE_LIMIT", "--rate-limit", "fast", "Invalid value for '--rate-limit'"),
    ("NEMETON_EXPIRE_AFTER", "--expire-after", "-1", "Invalid value for '--expire-after'"),
    ("NEMETON_AGENT", "--agent", "strong=ismcts:seconds=99", "at most"),
    ("NEMETON_AGENT", "--agent", "=random", "write NAME=SPEC"),
    ("NEMETON_LOG_FORMAT", "--log-format", "xml", "--log-format must be one of text, json; got 'xml'"),
])
def test_a_bad_value_in_a_variable_fails_as_the_flag_does(started, variable, flag, value, message):
    by_flag = serve({}, flag, value)
    by_variable = serve({variable: value})
    for result in (by_flag, by_variable):
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split()), result.output
        assert "run" not in started
    if flag not in ("--agent", "--log-format"):  # Click names the variable the value came from (the
        assert variable in by_variable.output     # command checks these two, and names the flag only)


def test_a_bad_metrics_variable_is_refused_naming_it(started):
    result = serve({"NEMETON_METRICS": "maybe"})
    assert result.exit_code == 2 and "run" not in started
    text = " ".join(result.output.replace("│", " ").split())
    assert "Invalid value for '--metrics' (env var: 'NEMETON_METRICS')" in text


def test_help_shows_every_variable_and_the_data_directory(tmp_path):
    env = {**os.environ, "NEMETON_DATA": str(tmp_path / "here"), "COLUMNS": "200"}
    nemeton = os.path.join(os.path.dirname(sys.executable), "nemeton")
    out = subprocess.run([nemeton, "serve", "--help"], capture_output=True, text=True, env=env, timeout=60).stdout
    text = " ".join(out.replace("│", " ").split())
    for variable in ("NEMETON_DATABASE_URL", "NEMETON_HOST", "NEMETON_PORT", "NEMETON_AGENT_THREADS",
                     "NEMETON_RATE_LIMIT", "NEMETON_AGENT", "NEMETON_FORWARDED_ALLOW_IPS", "NEMETON_EXPIRE_AFTER",
                     "NEMETON_METRICS", "NEMETON_LOG_FORMAT"):
        assert f"env var: {variable}]" in text, variable
    assert str(tmp_path / "here" / "nemeton.db") in text


# ----- the data directory ------------------------------------------------------------------
@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.delenv("NEMETON_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    import platformdirs
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "platform" / "nemeton"))
    return tmp_path


def test_the_data_directory_is_platformdirs_unless_nemeton_data_says(home, monkeypatch):
    from nemeton.server.db import default_url
    assert paths.data_dir() == (home / "platform" / "nemeton", None)
    assert default_url() == f"sqlite:///{home / 'platform' / 'nemeton' / 'nemeton.db'}"
    monkeypatch.setenv("NEMETON_DATA", str(home / "mine"))
    assert default_url() == f"sqlite:///{home / 'mine' / 'nemeton.db'}"


def test_a_database_in_the_old_directory_is_still_used_and_said(home, started):
    old = home / "home" / ".local" / "share" / "nemeton"
    old.mkdir(parents=True)
    (old / "nemeton.db").write_bytes(b"")
    where, note = paths.data_dir()
    assert where == old and "old data directory" in note and str(home / "platform" / "nemeton") in note
    result = serve({"NEMETON_DATA": None, "HOME": str(home / "home")})
    assert result.exit_code == 0, result.output
    assert "old data directory" in " ".join(result.output.split())
    assert started["app_args"][0] is None  # the server opens default_url(): the old file


def test_on_linux_the_old_and_new_directories_are_one(monkeypatch, tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    monkeypatch.delenv("NEMETON_DATA", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    old = tmp_path / ".local" / "share" / "nemeton"
    old.mkdir(parents=True)
    (old / "nemeton.db").write_bytes(b"")
    assert paths.data_dir() == (old, None)


# ----- /docs offline -----------------------------------------------------------------------
def test_the_api_docs_are_served_whole_by_the_server(db_url):
    with TestClient(server_app.create_app(db_url, rate_limit=None)) as client:
        for page in ("/docs", "/redoc"):
            r = client.get(page)
            assert r.status_code == 200
            html = r.text
            assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", html, re.I), f"{page} names an outside address"
            refs = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert refs
            for ref in refs:
                assert ref.startswith("/"), ref
                asset = client.get(ref)
                assert asset.status_code == 200, ref
            policy = r.headers["content-security-policy"]
            scripts = re.search(r"script-src ([^;]*)", policy).group(1)
            assert "unsafe-inline" not in scripts and "unsafe-eval" not in scripts
            for inline in re.findall(r"<script>(.*?)</script>", html, re.S):
                digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in scripts
        assert "SwaggerUIBundle" in client.get("/docs").text
        assert client.get("/openapi.json").status_code == 200
        lobby = client.get("/").headers["content-security-policy"]
        assert "script-src 'self';" in lobby and "sha256" not in lobby
