"""The registry of games: ``make("alarun", players=3, seed=7, **options)``.

A :class:`GameSpec` also stands guard over the game's decoders. States, views and actions
can come from files and from the network, so ``spec.state_from_json``, ``spec.determinize``,
``spec.legal_actions_from_view``, ``spec.prepare_sampler`` (and the sampler it returns) and
``spec.action_from_json`` check what the engine owns (plain JSON data of bounded size and
depth; a view's envelope) and turn any stray exception of the game's code into a
:class:`RecordError` with a short message, so nothing but the engine's own errors leaves
them. The guards are a ``try`` around the game's function (free when nothing is raised) and
a check of the input once per call; a sampler checks its view once, not per sample.
"""

from __future__ import annotations

import importlib
import math
import operator
import pkgutil
import random
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from . import checks
from .action import Action, ActionCodec
from .errors import InvalidOptionsError, NemetonError, RecordError, UnknownGameError, clip, snippet
from .options import GameOptions, build_options, describe_options, OptionInfo
from .parts import LazyPart
from .state import State

if TYPE_CHECKING:
    from .encoding import GameEncoding, GameFacts

# Games are the packages under ``nemeton.games``: importing one registers it. The engine
# names no game.
_GAMES_PACKAGE = "nemeton.games"


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of Nemeton needs to know about one game."""

    name: str
    title: str
    summary: str
    player_counts: tuple[int, ...]
    options_cls: type[GameOptions]
    new_state: Callable[[Any, int], State]  # called with an instance of options_cls
    state_from_json: Callable[[Mapping[str, Any]], State]
    action_codec: ActionCodec
    legal_actions_from_view: Callable[[Mapping[str, Any]], list[Action]]
    determinize: Callable[[Mapping[str, Any], random.Random], State]
    render: Callable[[Mapping[str, Any]], str]
    # Options that bots, simulations and RL use unless told otherwise (e.g. safety caps).
    bot_defaults: Mapping[str, Any] = field(default_factory=dict)
    # Extra option sets the conformance suite must cover besides each player count.
    conformance_variants: tuple[Mapping[str, Any], ...] = ()
    # Optional fast path for search: read a view once, then sample many states from it.
    # ``prepare_sampler(view)(rng)`` must be distributed like ``determinize(view, rng)``.
    prepare_sampler: Callable[[Mapping[str, Any]], Callable[[random.Random], State]] | None = None
    # The kinds of event the game's log records: kind -> what it means (docs/rules/<game>.md
    # lists the same; the conformance suite checks every recorded kind is declared).
    event_kinds: Mapping[str, str] = field(default_factory=dict)
    # Bumped whenever a rules change makes old records replay differently.
    rules_version: int = 1
    # What every seat knows before the game starts and that never changes under these options
    # (Edora: the board's layout and the components' texts): JSON-ready; clients draw from it
    # beside the views, which carry only what changes. Nothing hidden may be in it.
    public_data: Callable[[Any], Mapping[str, Any]] = field(default=lambda options: {})  # (an options_cls)
    # The golden playthroughs kept for this game (tests/playthroughs/<name>-<label>.txt):
    # label -> (options, seed, seed of the random choices). See nemeton.engine.playthrough.
    playthroughs: Mapping[str, tuple[Mapping[str, Any], int, int]] = field(default_factory=dict)
    # The parts of the game imported on first use (nemeton.engine.parts), each named once here:
    # its RL encoding module (``encoding_for(options)`` and ``options_from_view(view)``; see
    # nemeton.engine.encoding; only it needs NumPy), its heuristic (a GameHeuristic), what the
    # arena measures of it (a GameSignals), a fitted cut-off evaluation (a FittedModel) and its
    # scoring companion for a physical game (a Companion: ``nemeton <game> score``).
    encoding_module: LazyPart | None = None
    heuristic: LazyPart | None = None
    signals: LazyPart | None = None
    fitted: LazyPart | None = None
    companion: LazyPart | None = None
    # Its compiled kernel (a nemeton.engine.kernel.Kernel subclass taking ``(options, batch)``;
    # needs the ``fast`` extra): a second implementation of the rules, proven equal to them.
    kernel: LazyPart | None = None
    # The folder of the game's web renderer (``renderer.js``, an ES module, and ``style.css``);
    # the server serves it at ``/games/<name>/`` and the room page imports it from there.
    web_dir: str | None = None
    # The folder of the game's message catalogues (``<lang>/LC_MESSAGES/<name>.po`` and
    # ``.mo``, gettext, managed with Babel: docs/i18n.md); its ids start with ``<name>.``.
    locale_dir: str | None = None
    # An action as a message (its id and arguments, :mod:`nemeton.i18n`) for a person's list
    # of moves in their language (the terminal); None = ``str(action)``, in English.
    action_message: Callable[[Any], Mapping[str, Any] | None] | None = None

    def __post_init__(self) -> None:
        # The public decoders are the game's functions behind the engine's guards.
        for name, guard in (("state_from_json", _guard_state_loader),
                            ("determinize", _guard_determinize),
                            ("legal_actions_from_view", _guard_legal_actions_from_view),
                            ("prepare_sampler", _guard_prepare_sampler)):
            raw = getattr(self, name)
            if raw is not None:
                raw = getattr(raw, "_game_function", raw)  # dataclasses.replace: guard once
                guarded = guard(self, raw)
                guarded._game_function = raw
                object.__setattr__(self, name, guarded)

    def options(self, /, players: int | None = None, **raw: Any) -> GameOptions:
        """Validated options; a refusal's message names the option by this game's label for
        it (what the lobby shows: "rounds to win", not ``rounds_to_win``)."""
        if players is not None:
            raw["players"] = players
        try:
            return build_options(self.options_cls, raw, self.player_counts)
        except InvalidOptionsError as exc:
            if exc.msg is not None:
                from ..i18n import with_option_labels
                exc.msg = with_option_labels(exc.msg, self.name)
            raise

    def describe_options(self) -> list[OptionInfo]:
        return describe_options(self.options_cls)

    def make(self, /, players: int | None = None, seed: int | None = None, **raw: Any) -> State:
        """A new game; ``seed`` (an integer from 0 to 2**64-1) fixes every card it will deal,
        None draws one at random. A seed given as text (``"7"``) is rejected."""
        opts = self.options(players, **raw)
        seed = secrets.randbits(63) if seed is None else check_seed(seed, InvalidOptionsError)
        return self.new_state(opts, seed)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """A function rng -> determinized state for one fixed view (search calls it per
        iteration). The view is checked once, here; each sample only runs inside a ``try``."""
        if self.prepare_sampler is not None:
            return self.prepare_sampler(view)
        check_view(self, view)
        determinize = getattr(self.determinize, "_game_function", self.determinize)
        return _guard_sample(self, lambda rng: determinize(view, rng))

    def action_from_json(self, data: Any, options: GameOptions | None = None) -> Action:
        """The action ``data`` (its JSON form) names, or :class:`RecordError` naming the bad
        field. Every field's type and range is checked; with ``options`` (this game's validated
        options, from :meth:`options`) the action must also be one that exists for them (Edora:
        a sanctuary, space, start space and cost of the board; Amarok: a card of the deck).
        Without options, only what holds for every option value is checked; whether the action
        is legal is always the state's call."""
        if options is not None and not isinstance(options, self.options_cls):
            raise InvalidOptionsError(f"options for {self.name} actions must be the game's validated "
                                      f"options (spec.options(...)); got a {type(options).__name__}")
        return self.action_codec.from_json(data, options)

    # ----- the RL edge (nemeton.engine.encoding; needs NumPy) ----------------------------------
    def encoding(self, options: GameOptions | Mapping[str, Any] | None = None) -> "GameEncoding":
        """The game's integers and tensors for ``options`` (this game's validated options, or
        raw options to validate; None = the defaults with the bot defaults): action space,
        observation layout and encoder, facts. Built once per options."""
        if not isinstance(options, GameOptions):
            options = self.options(**{**self.bot_defaults, **dict(options or {})})
        elif not isinstance(options, self.options_cls):
            raise InvalidOptionsError(f"options for {self.name} must be the game's own options "
                                      f"(spec.options(...)); got a {type(options).__name__}")
        return self._encoding_module().encoding_for(options)

    def action_space(self, options: GameOptions | Mapping[str, Any] | None = None) -> tuple[Action, ...]:
        """Every action that can exist with ``options``, in a fixed order: an action's id is
        its index (known before the game starts)."""
        return self.encoding(options).actions.actions

    def observation_layout(self, options: GameOptions | Mapping[str, Any] | None = None) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(name, offset, shape)`` of every slice of the observation tensor, in order."""
        return self.encoding(options).layout.entries()

    def facts(self, options: GameOptions | Mapping[str, Any] | None = None) -> "GameFacts":
        """Utility range and sum, maximum game length, players and teams."""
        return self.encoding(options).facts

    def observe(self, view: Mapping[str, Any]) -> "Any":
        """The observation tensor (float32) of ``view``'s seat, built from the view alone."""
        check_view(self, view)
        module = self._encoding_module()
        options = _call(self, "view", module.options_from_view, view)
        return _call(self, "view", module.encoding_for(options).encode, view)

    def _encoding_module(self) -> Any:
        if self.encoding_module is None:
            raise NemetonError(f"{self.name} has no RL encoding")
        return self.encoding_module()

    def conformance_configs(self) -> list[dict[str, Any]]:
        configs: list[dict[str, Any]] = [{"players": n} for n in self.player_counts]
        configs += [dict(v) for v in self.conformance_variants]
        return configs


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _REGISTRY[spec.name] = spec
    return spec


_discovered = False


def _load_builtins() -> None:
    """Import every game package under ``nemeton.games`` once (each registers itself)."""
    global _discovered
    if _discovered:
        return
    package = importlib.import_module(_GAMES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            importlib.import_module(f"{_GAMES_PACKAGE}.{info.name}")
    _discovered = True


def get_game(name: str) -> GameSpec:
    _load_builtins()
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        raise UnknownGameError(
            f"unknown game {snippet(name, 40)}; known games: {', '.join(sorted(_REGISTRY))}")
    return spec


def list_games() -> list[GameSpec]:
    _load_builtins()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def make(name: str, /, players: int | None = None, seed: int | None = None, **options: Any) -> State:
    """Create a game: ``make("alarun", players=3, seed=7, action_cap=40)``."""
    return get_game(name).make(players, seed, **options)


# ----- seeds -----------------------------------------------------------------------------
MAX_SEED = 2**64 - 1


def check_seed(seed: Any, error: type[NemetonError] = RecordError) -> int:
    """``seed`` as an int from 0 to 2**64-1, or ``error``. Text (``"7"``), floats and
    booleans are rejected rather than read as some other game."""
    if not isinstance(seed, bool):
        try:
            value = operator.index(seed)  # an int, or an integer type such as numpy's
        except TypeError:
            value = None
        if value is not None and 0 <= value <= MAX_SEED:
            return value
    raise error(f"a seed must be an integer from 0 to 2**64-1; got {snippet(seed)}"
                      + (" (text: write the number without quotes)" if isinstance(seed, str) else ""))


# ----- checks of the JSON data given to a game's decoders ------------------------------------
# Views carry small numbers (counts, seats, scores, option values: see MAX_OPTION_INT), so
# their bound keeps a game's loops over a view's counts short; states also carry their
# random stream (32-bit words) and seed (64 bits).
VIEW_MAX_INT = 1_000_000
STATE_MAX_INT = 2**64
MAX_JSON_DEPTH = 32
MAX_JSON_NODES = 1_000_000
MAX_JSON_CHARS = 1_000_000


def check_json(data: Any, what: str, max_int: int) -> None:
    """RecordError unless ``data`` is plain JSON data (dicts with text keys, lists, text,
    finite numbers, booleans, null) of bounded depth, size and magnitude."""
    if not _plain_json(data, max_int):
        _explain_json(data, what, max_int)


def _plain_json(data: Any, max_int: int) -> bool:
    """The fast check (exact types, no paths): True when ``data`` is certainly fine."""
    stack: list[tuple[Any, int]] = [([data], -1)]
    nodes = 0
    while stack:
        container, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            return False
        nodes += len(container)
        if nodes > MAX_JSON_NODES:
            return False
        if type(container) is dict:
            for key in container:
                if type(key) is not str:
                    return False
            items = container.values()
        else:
            items = container
        for item in items:
            kind = type(item)
            if kind is str:
                if len(item) > MAX_JSON_CHARS:
                    return False
            elif kind is int:
                if not -max_int <= item <= max_int:
                    return False
            elif kind is list or kind is dict or kind is tuple:
                stack.append((item, depth + 1))
            elif kind is float:
                if not (math.isfinite(item) and -max_int <= item <= max_int):
                    return False
            elif item is not None and kind is not bool:
                return False
    return True


def _explain_json(data: Any, what: str, max_int: int) -> None:
    """The slow check, with paths, for the message (accepts int and str subclasses)."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    nodes = 0
    while stack:
        value, depth, path = stack.pop()
        nodes += 1
        problem = None
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):
            if -max_int <= value <= max_int:
                continue
            problem = f"a number out of range (at most {max_int:,} in size)"
        elif isinstance(value, float):
            if math.isfinite(value) and abs(value) <= max_int:
                continue
            problem = "a number out of range (or infinite, or not a number)"
        elif isinstance(value, str):
            if len(value) <= MAX_JSON_CHARS:
                continue
            problem = f"text longer than {MAX_JSON_CHARS:,} characters"
        elif isinstance(value, (list, tuple, dict)):
            if depth >= MAX_JSON_DEPTH:
                problem = f"data nested more than {MAX_JSON_DEPTH} deep"
            elif nodes + len(value) > MAX_JSON_NODES:
                problem = f"more than {MAX_JSON_NODES:,} values"
            elif isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        problem = f"a key that is not text ({snippet(key, 30)})"
                        break
                    stack.append((item, depth + 1, path + "." + key[:30]))
            else:
                for k, item in enumerate(value):
                    stack.append((item, depth + 1, f"{path}[{k}]"))
            if problem is None:
                continue
        else:
            problem = f"a {type(value).__name__} (not JSON data)"
        where = path.lstrip(".") or "the top"
        raise RecordError(f"{what} holds {problem} at {where if len(where) <= 80 else '...' + where[-77:]}")


_ENVELOPE = ("game", "seat", "players", "acting", "round", "terminal", "scores")


def check_view(spec: "GameSpec", view: Any) -> None:
    """RecordError unless ``view`` is plain JSON data with a well-formed envelope for ``spec``."""
    if not isinstance(view, dict):
        checks.fail("a view", "a JSON object", view)
    missing = [key for key in _ENVELOPE if key not in view]
    if missing:
        raise RecordError(f"a view must have the envelope {', '.join(_ENVELOPE)}; missing {', '.join(missing)}")
    check_json(view, "the view", VIEW_MAX_INT)
    if view["game"] != spec.name:
        raise RecordError(f"this is not a view of {spec.name}: its game is {snippet(view['game'])}")
    players = view["players"]
    if not checks.is_int(players) or players not in spec.player_counts:
        checks.fail(f"a {spec.name} view's players", f"one of {', '.join(map(str, spec.player_counts))}", players)
    seat = view["seat"]
    if seat is not None and not checks.is_seat(seat, players):
        checks.fail("a view's seat", f"null (the spectator) or 0..{players - 1}", seat)
    if not checks.are_seats(view["acting"], players):
        checks.fail("a view's acting", f"a list of distinct seats 0..{players - 1}", view["acting"])
    if not checks.is_int(view["round"]) or view["round"] < 0:
        checks.fail("a view's round", "a non-negative integer", view["round"])
    checks.boolean(view["terminal"], "a view's terminal")
    scores = view["scores"]
    if not (isinstance(scores, list) and len(scores) == players
            and all(x is None or checks.is_number(x) for x in scores)):
        checks.fail("a view's scores", f"a list of {players} numbers or nulls", scores)


# ----- the guards around a game's decoders ---------------------------------------------------
def _stray(spec: "GameSpec", what: str, exc: Exception) -> RecordError:
    """The RecordError for an exception a game's decoder raised on malformed input: its type
    and a bounded snippet of its message (never the input itself)."""
    return RecordError(f"cannot read this {spec.name} {what}: {type(exc).__name__}: {clip(str(exc), 80)}")


def _call(spec: "GameSpec", what: str, decode: Callable[..., Any], *args: Any) -> Any:
    """``decode(*args)``, with any exception but the engine's own (and MemoryError) turned
    into :func:`_stray`'s RecordError."""
    try:
        return decode(*args)
    except (NemetonError, MemoryError):
        raise
    except Exception as exc:
        raise _stray(spec, what, exc) from exc


def _guard_state_loader(spec: "GameSpec", load: Callable[[Mapping[str, Any]], State]):
    def state_from_json(data: Mapping[str, Any]) -> State:
        if not isinstance(data, dict):
            checks.fail(f"a {spec.name} state", "a JSON object", data)
        check_json(data, f"the {spec.name} state", STATE_MAX_INT)
        return _call(spec, "state", load, data)
    return state_from_json


def _guard_determinize(spec: "GameSpec", determinize: Callable[[Mapping[str, Any], random.Random], State]):
    def guarded_determinize(view: Mapping[str, Any], rng: random.Random) -> State:
        check_view(spec, view)
        return _call(spec, "view", determinize, view, rng)
    return guarded_determinize


def _guard_legal_actions_from_view(spec: "GameSpec", legal: Callable[[Mapping[str, Any]], list[Action]]):
    def legal_actions_from_view(view: Mapping[str, Any]) -> list[Action]:
        """The legal actions of the view's seat; [] for the spectator and a seat not acting
        (decided here, once, as :meth:`State.legal_actions` does)."""
        check_view(spec, view)
        if view["seat"] is None or view["seat"] not in view["acting"]:
            return []
        return _call(spec, "view", legal, view)
    return legal_actions_from_view


def _guard_prepare_sampler(spec: "GameSpec", prepare: Callable[[Mapping[str, Any]], Callable[[random.Random], State]]):
    def prepare_sampler(view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        check_view(spec, view)
        return _guard_sample(spec, _call(spec, "view", prepare, view))
    return prepare_sampler


def _guard_sample(spec: "GameSpec", sample: Callable[[random.Random], State]) -> Callable[[random.Random], State]:
    # search calls this once per iteration: the try is written inline rather than through _call
    def guarded_sample(rng: random.Random) -> State:
        try:
            return sample(rng)
        except (NemetonError, MemoryError):
            raise
        except Exception as exc:
            raise _stray(spec, "view", exc) from exc
    return guarded_sample
