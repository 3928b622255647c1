"""Smoke tests of the load benchmark (python -m nemeton.server.bench): a few rooms on one
server process and SQLite, played to the end with no error and no lost move; the routing
proxy's generated configuration passes `nginx -t` where nginx is installed (skipped, saying
why, where it is not). The full runs, with PostgreSQL and two processes, are in
docs/benchmarks.md."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from nemeton.server import bench


def test_a_few_rooms_on_one_process_are_played_to_the_end(capsys):
    bench.main(["--rooms", "3", "--seed", "7"])
    report = json.loads(capsys.readouterr().out)
    assert report["rooms"] == 3 and report["moves"] > 0 and report["people_actions"] > 0
    assert report["errors"] == 0 and report["lost_moves"] == 0, report["first_errors"]
    assert report["processes"] == 1 and report["proxy"] is None
    parts = report["cpu"]["parts"]
    assert parts["server 1"]["cpu_s"] > 0 and "client (this bench)" in parts


def test_kill_after_needs_two_processes_behind_the_proxy():
    with pytest.raises(SystemExit):
        bench.main(["--rooms", "1", "--kill-after", "1"])


def test_the_generated_proxy_configuration_passes_nginx_t(tmp_path):
    nginx = shutil.which("nginx") or (shutil.which("nginx", path="/usr/sbin"))
    if nginx is None:
        pytest.skip("nginx is not installed here (Debian: apt-get install nginx)")
    conf = tmp_path / "nginx.conf"
    conf.write_text(bench.nginx_config(tmp_path, 18181, [18182, 18183]))
    checked = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True,
                             timeout=30)
    assert checked.returncode == 0, checked.stderr
    assert "hash $nemeton_room consistent" in conf.read_text()


def test_the_reported_nginx_errors_show_no_seat_token(tmp_path):
    log = tmp_path / "error.log"
    log.write_text('[warn] 1#1: *5 upstream prematurely closed, request: "GET /api/rooms/R/view?token=S3CRETt0ken '
                   'HTTP/1.1", upstream: "http://127.0.0.1:9/api/rooms/R/view?tok%65n=S3CRETt0ken"\n')
    errors = bench.nginx_errors(log)
    assert errors["lines"] == 1 and "S3CRETt0ken" not in errors["last"][0] and "token=***" in errors["last"][0]
