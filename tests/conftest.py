"""Test configuration for the whole suite. Shared helpers live in modules with their own
names (``configs.py``), since ``from conftest import ...`` is ambiguous once a sub-folder has
a conftest.py of its own."""

import sys

import pytest


@pytest.fixture(autouse=True)
def _each_test_starts_from_the_environments_language():
    """A command's own ``--lang`` sets the terminal's language for the rest of its process (one
    command, in use); in the test process, where many commands run, each test starts afresh."""
    yield
    common = sys.modules.get("nemeton.cli.common")
    if common is not None:
        common._LANGUAGE.clear()
