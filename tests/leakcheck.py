"""Leak checks shared by the server and web tests: the leaves of JSON data, and what one
seat's view holds that another seat (and the spectator) may not know."""

from __future__ import annotations

import json


def leaves(data, path=()):
    """Every (path, value) leaf of JSON data."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, path + (i,))
    else:
        yield path, json.dumps(data)


def keys(data):
    """Every dict key in JSON data (a view may name things by its keys, e.g. herbs)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from keys(value)
    elif isinstance(data, list):
        for value in data:
            yield from keys(value)


def hidden_from(state, seat, other):
    """What seat ``other``'s view holds that neither the spectator's nor ``seat``'s does."""
    known = set(leaves(json.loads(json.dumps(state.view(None))))) | set(
        leaves(json.loads(json.dumps(state.view(seat)))))
    return set(leaves(json.loads(json.dumps(state.view(other))))) - known
