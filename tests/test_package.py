"""The wheel holds every file of the package: each tracked file under src/nemeton (the web
pages, scripts, styles, icon and vendored modules, each game's data and web renderer, the
migrations) is in the wheel an installed copy or the container runs from, not only in the
source tree the other tests run on."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tracked_package_files() -> set[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout to list the package's tracked files")
    out = subprocess.run(["git", "ls-files", "src/nemeton"], cwd=ROOT, capture_output=True, text=True, check=True)
    return {line.removeprefix("src/") for line in out.stdout.splitlines() if line}


def test_the_wheel_holds_every_tracked_file_of_the_package(tmp_path):
    tracked = tracked_package_files()
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    wheels = tmp_path / "wheels"
    build = ("import sys; from setuptools import build_meta; "
             "print(build_meta.build_wheel(sys.argv[1]))")
    run = subprocess.run([sys.executable, "-c", build, str(wheels)], cwd=source, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    wheel = wheels / run.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as z:
        shipped = {n for n in z.namelist() if n.startswith("nemeton/")}
    missing = sorted(tracked - shipped)
    assert missing == [], f"tracked files missing from the wheel: {missing}"
    assert "nemeton/web/favicon.svg" in shipped and "nemeton/games/edora/web/renderer.js" in shipped
