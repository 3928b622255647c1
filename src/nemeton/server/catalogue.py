"""What a client needs to offer a new game: the games, their options and the agents."""

from __future__ import annotations

import functools
from typing import Any

from ..engine import get_game, list_games
from ..engine.options import OptionInfo, content_hash
from ..i18n import catalogue as messages, msg
from .agents import DEFAULT_AGENTS, active

# The AI opponents a lobby offers, weakest first, unless the server's operator names others
# (nemeton.server.agents; a client names one of them, it never sends a spec).
AGENTS = tuple(a.entry() for a in DEFAULT_AGENTS)


def _message(id: str) -> dict[str, Any] | None:
    """Message ``id`` when the English catalogue has it (a game without these messages is
    shown in the English of its code)."""
    return msg(id) if id in messages("en") else None


def _with_messages(entry: dict[str, Any], **ids: str) -> dict[str, Any]:
    """``entry`` with each ``<field>_msg`` whose message exists."""
    for field, id in ids.items():
        message = _message(id)
        if message is not None:
            entry[f"{field}_msg"] = message
    return entry


def _option(game: str, o: OptionInfo) -> dict[str, Any]:
    """An option for a lobby. Beside the English (``help``, ``allowed``: the code's words, for
    bots and older clients), messages a client shows in its reader's language, from the game's
    catalogue: ``label_msg`` (<game>.option.<name>.label: the option's name as words),
    ``help_msg`` (<game>.option.<name>), ``allowed_msg`` (<game>.option.<name>.allowed, not for a
    bool) and, for a choice, ``choices_msg`` (value -> <game>.option.<name>.<value>)."""
    entry: dict[str, Any] = {"name": o.name, "kind": o.kind, "default": o.default, "allowed": o.allowed,
                             "help": o.help}
    base = f"{game}.option.{o.name}"
    _with_messages(entry, label=f"{base}.label", help=base, **({} if o.kind == "bool" else {"allowed": f"{base}.allowed"}))
    if o.kind == "choice":
        entry["choices"] = o.allowed.split(", ")
        shown = {c: _message(f"{base}.{c}") for c in entry["choices"]}
        if all(shown.values()):
            entry["choices_msg"] = shown
    if o.kind == "data":
        entry["default"] = None
        entry["format"] = o.data
        entry["standard"] = o.standard_hash
    return entry


def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts, options (kind, default, allowed values, help) and
    the agents this server offers for it (its operator's configuration). The English texts
    come with their messages (``summary_msg``: <game>.summary; each option's, see
    :func:`_option`; an agent's ``label_msg``/``help_msg``) for clients that show them in
    their reader's language."""
    policy = active()
    return [{**game, "agents": policy.entries_for(get_game(game["name"]))} for game in _games()]


@functools.lru_cache(maxsize=1)
def _games() -> tuple[dict[str, Any], ...]:
    return tuple(_with_messages({"name": s.name, "title": s.title, "summary": s.summary, "players": list(s.player_counts),
                                 "options": [_option(s.name, o) for o in s.describe_options() if o.name != "players"]},
                                summary=f"{s.name}.summary")
                 for s in list_games())


@functools.lru_cache(maxsize=None)
def _data_options(game: str) -> dict[str, str | None]:
    """A game's data options: name -> the standard one's hash (None: no standard)."""
    return {o.name: o.standard_hash for o in get_game(game).describe_options() if o.kind == "data"}


def display_stored_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """A room's stored options (the checked options' JSON) as a lobby shows them, without
    parsing any rules data: a data option's text becomes its content hash, the standard one
    ``"standard (sha256:...)"``. Equals ``display_options(spec.options(**options))``."""
    out = dict(options)
    for name, standard in _data_options(game).items():
        if name in out:
            value = out[name]
            if value is None:
                out[name] = "standard" + (f" ({standard})" if standard else "")
            elif isinstance(value, str):
                out[name] = content_hash(value)
    return out
