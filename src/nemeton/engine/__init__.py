"""The engine protocol: one vocabulary every game implements and everything else uses.

- :class:`GameOptions` typed, validated options (``players`` plus each game's variants);
- :class:`State` current player(s), legal actions, apply (checked), terminal test, scores,
  ranking and returns, ``clone()``, ``view(seat)``, JSON form, record;
- :class:`Action` small immutable values with a readable string and a stable JSON form;
- :class:`GameSpec` and the registry (``make``, ``get_game``, ``list_games``), with each
  game's view-only functions: legal actions from a view, the determinizer and the renderer;
- :class:`GameRecord` options + seed + actions, JSON, replay.
"""

from .action import Action, ActionCodec
from .errors import (IllegalActionError, InputError, InvalidOptionsError, InvalidSeatError, NemetonError,
                     RecordError, UnknownGameError)
from .options import (GameOptions, build_options, content_hash, describe_options, display_options,
                      is_data_option, option)
from .playout import random_playout
from .log import Event
from .record import GameRecord
from .registry import GameSpec, check_seed, get_game, list_games, make, register
from .state import TERMINAL, State, clone_rng, rng_from_json, rng_to_json

__all__ = [
    "Action", "ActionCodec", "Event", "GameOptions", "GameRecord", "GameSpec", "IllegalActionError",
    "InputError", "InvalidOptionsError", "InvalidSeatError", "NemetonError", "RecordError", "State", "TERMINAL",
    "UnknownGameError", "build_options", "check_seed", "clone_rng", "content_hash", "describe_options", "display_options", "is_data_option", "get_game",
    "list_games", "make", "option", "random_playout", "register", "rng_from_json", "rng_to_json",
]
