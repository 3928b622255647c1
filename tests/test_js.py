"""The web client's JavaScript unit tests (tests/js/*.test.mjs), run by Node's own test
runner (`node --import ./tests/js/static-paths.mjs --test tests/js/`, no npm package; the import maps the
pages' /static/ addresses to the package's files): this test fails when they fail, so the
suite's command runs them too. Skipped, with the reason, only where `node` is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JS_TESTS = ROOT / "tests" / "js"


def test_the_web_clients_javascript_unit_tests_pass_under_node():
    node = shutil.which("node")
    if node is None:
        pytest.skip("the JavaScript unit tests need Node.js 20 or later (`node` on PATH; Debian: apt-get install nodejs)")
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    assert files, "no JavaScript tests in tests/js/"
    run = subprocess.run([node, "--import", "./tests/js/static-paths.mjs", "--test", *[str(f.relative_to(ROOT)) for f in files]], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"node --test failed:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
    assert "# pass" in run.stdout and "# fail 0" in run.stdout, run.stdout[-2000:]
