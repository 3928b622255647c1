"""The container image (Dockerfile at the repository root): built, run, and a game played
through it over HTTP against the AI to the end, then /ready checked. Skipped, saying why,
where no Docker daemon answers `docker info` or the base image (python:3.11-slim) can be
neither found nor pulled."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE_IMAGE = "python:3.11-slim"


def docker(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)} failed: {done.stderr[-2000:]}")
    return done


@pytest.fixture(scope="module")
def image():
    if shutil.which("docker") is None:
        pytest.skip("the docker client is not installed here")
    try:
        info = docker("info", timeout=20, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("no Docker daemon answered `docker info` within 20 s")
    if info.returncode != 0:
        pytest.skip("no Docker daemon answers `docker info`")
    if docker("image", "inspect", BASE_IMAGE, check=False).returncode != 0:
        pulled = docker("pull", BASE_IMAGE, timeout=600, check=False)
        if pulled.returncode != 0:
            pytest.skip(f"the base image {BASE_IMAGE} is not here and cannot be pulled (no image registry reachable)")
    tag = f"nemeton-test:{uuid.uuid4().hex[:12]}"
    docker("build", "-t", tag, str(ROOT), timeout=1200)
    try:
        yield tag
    finally:
        docker("rmi", "-f", tag, check=False)


@pytest.fixture
def container(image):
    name = f"nemeton-test-{uuid.uuid4().hex[:12]}"
    docker("run", "-d", "--name", name, "-p", "127.0.0.1::8000", image)
    try:
        port = docker("port", name, "8000/tcp").stdout.split(":")[-1].strip()
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/rooms", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                logs = docker("logs", name, check=False)
                pytest.fail(f"the container did not answer within 60 s: {(logs.stdout + logs.stderr)[-2000:]}")
            time.sleep(0.5)
        yield name, base
    finally:
        docker("rm", "-f", name, check=False)


def test_a_game_against_the_ai_is_played_through_the_container(container):
    name, base = container
    with httpx.Client(base_url=base, timeout=30) as http:
        created = http.post("/api/rooms", json={
            "game": "edora", "seats": [{"kind": "human", "name": "Tester"}, {"kind": "ai", "agent": "random"}]})
        assert created.status_code == 201, created.text
        room = created.json()["room"]
        token = next(s["token"] for s in created.json()["seats"] if s["seat"] == 0)
        for _ in range(3000):
            view = http.get(f"/api/rooms/{room}/view", params={"token": token}).json()
            if view["terminal"]:
                break
            if view["legal_actions"]:
                answer = http.post(f"/api/rooms/{room}/actions", json={"token": token, "action": view["legal_actions"][0]})
                assert answer.status_code in (200, 409), answer.text
            else:
                time.sleep(0.05)  # the AI's turn
        else:
            pytest.fail("the game did not end within 3000 steps")
        assert http.get(f"/api/rooms/{room}/record").json()["actions"]
        assert http.get("/ready").status_code == 200
        assert http.get("/health").status_code == 200
    # the server runs as a non-root user, its SQLite database in the /data volume
    assert docker("exec", name, "id", "-u").stdout.strip() != "0"
    assert "nemeton.db" in docker("exec", name, "ls", "/data").stdout
    deadline = time.monotonic() + 60  # the image's HEALTHCHECK (/health by urllib) reports healthy
    while docker("inspect", "-f", "{{.State.Health.Status}}", name).stdout.strip() != "healthy":
        assert time.monotonic() < deadline, "the container's health check did not pass within 60 s"
        time.sleep(1)


def test_the_web_client_its_icon_and_the_api_docs_are_served_from_the_installed_package(container):
    # The image installs the package (pip install ".[server]"), not the source tree: every
    # page's file must have been packaged (package data), and /docs must need no CDN.
    _name, base = container
    with httpx.Client(base_url=base, timeout=30) as http:
        expected = {"/": "text/html", "/static/favicon.svg": "image/svg+xml", "/favicon.ico": "image/svg+xml",
                    "/games/edora/renderer.js": "javascript", "/docs": "text/html",
                    "/docs-assets/swagger-ui-bundle.js": "javascript"}
        for path, kind in expected.items():
            r = http.get(path)
            assert r.status_code == 200, (path, r.status_code, r.text[:200])
            assert kind in r.headers["content-type"], (path, r.headers["content-type"])
        assert "<svg" in http.get("/favicon.ico").text
        assert "/docs-assets/swagger-ui-bundle.js" in http.get("/docs").text
