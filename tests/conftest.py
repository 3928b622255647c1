"""Test configuration for the whole suite. Shared helpers live in modules with their own
names (``configs.py``), since ``from conftest import ...`` is ambiguous once a sub-folder has
a conftest.py of its own."""
