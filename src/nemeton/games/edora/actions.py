"""Edora's actions: one small immutable value per decision a player takes.

Every decision inside a turn is its own action (destination, die and space, food choice,
tablet, gem and row, stone, potion, herb, repeated reward), so agents and people choose
each one. The rules build each action value once, in tables (module constants for the
board-independent ones, ``board.tables`` for the rest), so legal-action lists allocate
nothing new.

Decoding (:data:`CODEC`, through :func:`lookup`) checks every field's type and range. Given
the game's options, it then looks an action that names the board (a start space, a sanctuary
and its spaces, a movement cost, an amulet row) up among the board's own actions, built once
per board in ``board.tables`` (boards are cached by content, a few at most), and refuses a
setup action of a variant the options leave out. Without options (the board is not known) it
checks only what holds on every board. Junk is refused with :class:`RecordError` naming the
field, and nothing is stored: no table grows however many actions are read. Whether a decoded
action is legal now is the state's call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable

from ...engine.action import Action, ActionCodec
from ...engine.checks import shown
from ...engine.errors import RecordError
from .board import (MAX_DARK, MAX_SANCTUARIES, NAME, REWARD_INDEX, REWARDS, ROW_NAME, RUNE_UNITS,
                    board_from_text, is_space_code)
from .components import (HERBS, POTION_EFFECTS, POTIONS, REWARD_GAINS, REWARD_NAMES, RUNE_NAMES, TABLETS,
                         herb_name)


@dataclass(frozen=True, slots=True)
class StartSpace(Action):
    """Setup: put your druid on a free start space."""
    kind: ClassVar[str] = "start"
    start: str
    sanctuary: str

    def __str__(self) -> str:
        return f"start at {self.start} (next to {self.sanctuary})"


@dataclass(frozen=True, slots=True)
class KeepTablet(Action):
    """Setup, variant V1: keep one of the 3 drawn tablets (the others go under the deck)."""
    kind: ClassVar[str] = "keep_tablet"
    tablet: str

    def __str__(self) -> str:
        return f"keep tablet {self.tablet}"


@dataclass(frozen=True, slots=True)
class ArrangeHerb(Action):
    """Setup, variant V3: put a herb face down in the next circle of your sickle track."""
    kind: ClassVar[str] = "arrange_herb"
    herb: str
    circle: int

    def __str__(self) -> str:
        return f"lay {herb_name(self.herb)} face down in herb circle {self.circle + 1}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Step 1: walk to another sanctuary along the cheapest route."""
    kind: ClassVar[str] = "move"
    to: str
    cost: int

    def __str__(self) -> str:
        return f"move to {self.to} (cost {self.cost})"


@dataclass(frozen=True, slots=True)
class ForestLeap(Action):
    """Step 1 with the leap herb: 1 provision to any sanctuary of the same glade."""
    kind: ClassVar[str] = "leap"
    to: str

    def __str__(self) -> str:
        return f"forest leap to {self.to} (cost 1)"


@dataclass(frozen=True, slots=True)
class Emergency(Action):
    """Druid in trouble: +6 provisions and 1 die from the overview board; no move, no die."""
    kind: ClassVar[str] = "emergency"

    def __str__(self) -> str:
        return "emergency turn (+6 provisions, 1 die)"


@dataclass(frozen=True, slots=True)
class PlaceDie(Action):
    """Step 2: a reserve die (``die``) on a free space, paying ``value`` (die herb may differ)."""
    kind: ClassVar[str] = "place"
    sanctuary: str
    space: int          # 1-based space number at that sanctuary
    action: str         # the space's code
    die: int
    value: int

    def __str__(self) -> str:
        turned = f" turned to {self.value}" if self.value != self.die else ""
        return f"place die {self.die}{turned} on {self.sanctuary} space {self.space} ({self.action})"


@dataclass(frozen=True, slots=True)
class FoodChoice(Action):
    """Provisions space: +12 provisions, or 3 dice from the overview board."""
    kind: ClassVar[str] = "food"
    take: str           # "provisions" | "dice"

    def __str__(self) -> str:
        return "take 12 provisions" if self.take == "provisions" else "take 3 dice from the overview board"


@dataclass(frozen=True, slots=True)
class TakeDie(Action):
    """Move one own die of this value from the overview board to the reserve."""
    kind: ClassVar[str] = "take_die"
    value: int

    def __str__(self) -> str:
        return f"take die {self.value} from the overview board"


@dataclass(frozen=True, slots=True)
class TakeTablet(Action):
    """Tablet action: take a face-up tablet (slot 0..11, side = slot // 2)."""
    kind: ClassVar[str] = "take_tablet"
    slot: int
    tablet: str

    def __str__(self) -> str:
        return f"take tablet {self.tablet} (oracle side {self.slot // 2}, slot {self.slot})"


@dataclass(frozen=True, slots=True)
class Brew(Action):
    kind: ClassVar[str] = "brew"
    potion: str

    def __str__(self) -> str:
        return f"brew {self.potion}: {POTION_EFFECTS.get(self.potion, '')}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """End an optional series (brewing, raising dice)."""
    kind: ClassVar[str] = "stop"
    what: str

    def __str__(self) -> str:
        return f"no more {self.what}"


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Leave the placed space's stone action unused (the die stays, its cost is paid)."""
    kind: ClassVar[str] = "skip"
    what: str

    def __str__(self) -> str:
        return f"skip the {self.what} action"


@dataclass(frozen=True, slots=True)
class TakeGem(Action):
    kind: ClassVar[str] = "gem"
    gem: str
    row: str

    def __str__(self) -> str:
        return f"put the {REWARD_NAMES.get(self.gem, self.gem)} gem on the {self.row} row"


@dataclass(frozen=True, slots=True)
class StandingStone(Action):
    """Place the standing stone covering this reward of your row."""
    kind: ClassVar[str] = "standing_stone"
    stone: str

    def __str__(self) -> str:
        return f"place the {REWARD_NAMES.get(self.stone, self.stone)} standing stone"


@dataclass(frozen=True, slots=True)
class RuneStone(Action):
    kind: ClassVar[str] = "rune_stone"
    stone: str

    def __str__(self) -> str:
        return f"place the {RUNE_NAMES.get(self.stone, self.stone)} rune stone"


@dataclass(frozen=True, slots=True)
class RepeatReward(Action):
    """Standing-stone or fire herb: take one of the rewards just gained once more."""
    kind: ClassVar[str] = "repeat"
    reward: str

    def __str__(self) -> str:
        return f"take {REWARD_GAINS.get(self.reward, self.reward)} once more"


@dataclass(frozen=True, slots=True)
class RaiseDie(Action):
    """Potions P1c/P6a: set one of your placed dice to 6."""
    kind: ClassVar[str] = "raise_die"
    sanctuary: str
    space: int
    value: int

    def __str__(self) -> str:
        return f"set your die {self.value} on {self.sanctuary} space {self.space} to 6"


@dataclass(frozen=True, slots=True)
class FlipHerb(Action):
    """Potion P1b: turn an inactive herb face up."""
    kind: ClassVar[str] = "flip_herb"
    herb: str

    def __str__(self) -> str:
        return f"turn {herb_name(self.herb)} face up"


@dataclass(frozen=True, slots=True)
class TakeHerb(Action):
    """Potions P2a/P4c: take an unreleased herb from the sickle track, active."""
    kind: ClassVar[str] = "take_herb"
    herb: str

    def __str__(self) -> str:
        return f"take {herb_name(self.herb)} from the sickle track (face up)"


@dataclass(frozen=True, slots=True)
class ActivateHerb(Action):
    """Step 7: of a released pair, ``herb`` goes face up and ``other`` face down."""
    kind: ClassVar[str] = "activate_herb"
    herb: str
    other: str

    def __str__(self) -> str:
        return f"activate {herb_name(self.herb)} ({herb_name(self.other)} face down)"


ACTION_CLASSES = (StartSpace, KeepTablet, ArrangeHerb, Move, ForestLeap, Emergency, PlaceDie,
                  FoodChoice, TakeDie, TakeTablet, Brew, Stop, Skip, TakeGem, StandingStone, RuneStone,
                  RepeatReward, RaiseDie, FlipHerb, TakeHerb, ActivateHerb)

# ----- the board's own actions ------------------------------------------------------------------

def build_board_tables(board) -> None:
    """The actions that name the board's sanctuaries and rows, built once and kept in
    ``board.tables`` (they go when the board goes)."""
    tables = board.tables
    if "moves" in tables:
        return
    names = board.names
    top = max(max(r) for r in board.dist)
    tables["moves"] = [[Move(names[d], c) for c in range(top + 1)] for d in range(board.size)]
    tables["leaps"] = [ForestLeap(names[d]) for d in range(board.size)]
    tables["places"] = [[[[PlaceDie(names[s], i + 1, board.spaces[s][i], v, w) if v and w else None
                           for w in range(7)] for v in range(7)]
                         for i in range(len(board.spaces[s]))] for s in range(board.size)]
    tables["raise"] = [[[RaiseDie(names[s], i + 1, v) if 0 < v < 6 else None for v in range(7)]
                        for i in range(len(board.spaces[s]))] for s in range(board.size)]
    tables["gems"] = [[TakeGem(REWARDS[g], row) for g in range(6)] for row in board.amulet_rows]
    tables["starts"] = {board.start_names[k]: StartSpace(board.start_names[k], names[s])
                        for k, s in enumerate(board.start_sanctuary)}
    # a move to d costs the cheapest route to it from where the druid stands: any other sanctuary
    tables["move_costs"] = [frozenset(board.dist[a][d] for a in range(board.size) if a != d)
                            for d in range(board.size)]


# ----- decoding: every field checked, nothing stored ---------------------------------------------

class FieldCheck:
    """A test of one field of a decoded action, and what it allows in words."""

    __slots__ = ("test", "allowed")

    def __init__(self, test: Callable[[Any], bool], allowed: str) -> None:
        self.test, self.allowed = test, allowed


def _int_in(low: int, high: int) -> FieldCheck:
    return FieldCheck(lambda value: type(value) is int and low <= value <= high, f"an integer from {low} to {high}")


def _one_of(names: Iterable[str], what: str) -> FieldCheck:
    allowed = frozenset(names)
    return FieldCheck(lambda value: type(value) is str and value in allowed, what)


def _matching(pattern: re.Pattern[str], what: str) -> FieldCheck:
    return FieldCheck(lambda value: type(value) is str and pattern.match(value) is not None, what)


_space_code = FieldCheck(lambda value: type(value) is str and len(value) <= 20 and is_space_code(value),
                         "a space code (FD, KN<k>, SI<k>, TB, SS, RS, MI<m>P<n>, AM-<ROW>-x<k>)")

SANCTUARY = _matching(NAME, "a sanctuary id (1-12 letters, digits or _)")
HERB = _one_of(HERBS, "a herb id (H_FOOD ... H_TABLET)")
TABLET = _one_of(TABLETS, "a tablet id (T1 ... T15)")
REWARD = _one_of(REWARDS, f"a reward ({', '.join(REWARDS)})")
SPACE = _int_in(1, 4)
DIE = _int_in(1, 6)

FIELD_CHECKS: dict[type[Action], dict[str, FieldCheck]] = {
    StartSpace: {"start": _matching(NAME, "a start space id"), "sanctuary": SANCTUARY},
    KeepTablet: {"tablet": TABLET},
    ArrangeHerb: {"herb": HERB, "circle": _int_in(0, 11)},
    Move: {"to": SANCTUARY, "cost": _int_in(1, MAX_SANCTUARIES * (1 + MAX_DARK))},
    ForestLeap: {"to": SANCTUARY},
    Emergency: {},
    PlaceDie: {"sanctuary": SANCTUARY, "space": SPACE, "action": _space_code, "die": DIE, "value": DIE},
    FoodChoice: {"take": _one_of(("provisions", "dice"), "provisions or dice")},
    TakeDie: {"value": DIE},
    TakeTablet: {"slot": _int_in(0, 11), "tablet": TABLET},
    Brew: {"potion": _one_of(POTIONS, "a potion id (P1a ... P6c)")},
    Stop: {"what": _one_of(("potions", "dice to raise"), "potions or dice to raise")},
    Skip: {"what": _one_of(("standing-stone", "rune-stone"), "standing-stone or rune-stone")},
    TakeGem: {"gem": REWARD, "row": _matching(ROW_NAME, "an amulet row (capital letters)")},
    StandingStone: {"stone": REWARD},
    RuneStone: {"stone": _one_of(RUNE_UNITS, f"a rune stone ({', '.join(RUNE_UNITS)})")},
    RepeatReward: {"reward": REWARD},
    RaiseDie: {"sanctuary": SANCTUARY, "space": SPACE, "value": _int_in(1, 5)},
    FlipHerb: {"herb": HERB},
    TakeHerb: {"herb": HERB},
    ActivateHerb: {"herb": HERB, "other": HERB},
}


def _board_independent_actions() -> dict[Action, Action]:
    """Every action whose fields name no part of the board: the few values each field may take
    (:data:`FIELD_CHECKS`), all combinations, built once (a few hundred)."""
    actions = [Emergency(), *(FoodChoice(t) for t in ("provisions", "dice")),
               *(TakeDie(v) for v in range(1, 7)), *(Brew(p) for p in POTIONS),
               Stop("potions"), Stop("dice to raise"), Skip("standing-stone"), Skip("rune-stone"),
               *(StandingStone(r) for r in REWARDS), *(RuneStone(u) for u in RUNE_UNITS),
               *(RepeatReward(r) for r in REWARDS), *(FlipHerb(h) for h in HERBS), *(TakeHerb(h) for h in HERBS),
               *(ActivateHerb(a, b) for a in HERBS for b in HERBS if a != b),
               *(ArrangeHerb(h, c) for h in HERBS for c in range(12)), *(KeepTablet(t) for t in TABLETS),
               *(TakeTablet(slot, t) for slot in range(12) for t in TABLETS)]
    return {a: a for a in actions}


# Looked up by decoding; nothing is ever added.
BOARD_INDEPENDENT = _board_independent_actions()


def _refuse(action: Action, name: str, allowed: str) -> RecordError:
    """The error for a field of ``action`` that is not what is ``allowed``."""
    return RecordError(f"action {action.kind!r}: field {name!r} must be {allowed}; got {shown(getattr(action, name))}")


def checked(action: Action) -> Action:
    """``action`` itself when every field has the type and range an Edora action can have;
    otherwise :class:`RecordError` naming the field and what is allowed. Nothing is stored."""
    for name, check in FIELD_CHECKS[type(action)].items():
        value = getattr(action, name)
        if not check.test(value):
            raise _refuse(action, name, check.allowed)
    if isinstance(action, ActivateHerb) and action.herb == action.other:
        raise RecordError("action 'activate_herb': herb and other must be the two different herbs of a pair")
    return action


# ----- decoding with the options: the board's own actions ----------------------------------------

def _listed(names) -> str:
    names = list(names)
    return ", ".join(names) if len(names) <= 8 else ", ".join(names[:6]) + f", ... ({len(names)} in all)"


def _sanctuary(action: Any, board) -> int:
    """The index of the sanctuary ``action`` names (its ``sanctuary``, or a move's ``to``)."""
    s = board.index.get(action.sanctuary if hasattr(action, "sanctuary") else action.to)
    if s is None:
        name = "sanctuary" if hasattr(action, "sanctuary") else "to"
        raise _refuse(action, name, f"a sanctuary of this board ({_listed(board.names)})")
    return s


def _space(action: PlaceDie | RaiseDie, board, s: int, players: int) -> int:
    """The 0-based index of the action's space at sanctuary ``s`` (a game of ``players`` uses
    the first ``players`` spaces of each sanctuary)."""
    count = min(len(board.spaces[s]), players)
    if not 1 <= action.space <= count:
        raise _refuse(action, "space",
                      f"a space of {board.names[s]} in a {players}-player game (1 to {count})")
    return action.space - 1


def _start(action: StartSpace, board, options) -> Action:
    found = board.tables["starts"].get(action.start)
    if found is None:
        raise _refuse(action, "start", f"a start space of this board ({_listed(board.tables['starts'])})")
    if found.sanctuary != action.sanctuary:
        raise _refuse(action, "sanctuary", f"{found.sanctuary!r}, the sanctuary next to {found.start}")
    return found


def _move(action: Move, board, options) -> Action:
    d = _sanctuary(action, board)
    costs = board.tables["move_costs"][d]
    if action.cost not in costs:
        raise _refuse(action, "cost", f"the cost of a move to {action.to} on this board "
                                      f"({', '.join(map(str, sorted(costs)))})")
    return board.tables["moves"][d][action.cost]


def _leap(action: ForestLeap, board, options) -> Action:
    return board.tables["leaps"][_sanctuary(action, board)]


def _place(action: PlaceDie, board, options) -> Action:
    s = _sanctuary(action, board)
    i = _space(action, board, s, options.players)
    if action.action != board.spaces[s][i]:
        raise _refuse(action, "action",
                      f"{board.spaces[s][i]!r}, the code of {action.sanctuary} space {action.space}")
    return board.tables["places"][s][i][action.die][action.value]


def _raise(action: RaiseDie, board, options) -> Action:
    s = _sanctuary(action, board)
    return board.tables["raise"][s][_space(action, board, s, options.players)][action.value]


def _gem(action: TakeGem, board, options) -> Action:
    if action.row not in board.amulet_rows:
        raise _refuse(action, "row", f"an amulet row of this board ({_listed(board.amulet_rows)})")
    return board.tables["gems"][board.amulet_rows.index(action.row)][REWARD_INDEX[action.gem]]


# (action, board, options) -> the board's own instance
BOARD_LOOKUPS: dict[type[Action], Callable[[Any, Any, Any], Action]] = {
    StartSpace: _start, Move: _move, ForestLeap: _leap, PlaceDie: _place, RaiseDie: _raise, TakeGem: _gem}
# Setup actions that exist only in a variant: class -> (option, variant).
VARIANT_ACTIONS = {KeepTablet: ("tablet_draft", "V1"), ArrangeHerb: ("arranged_herbs", "V3")}


def lookup(action: Action, options=None) -> Action:
    """The decoder's lookup (:data:`CODEC`'s intern): every field's type and range checked
    (:func:`checked`), then the game's own instance: of the board's tables for an action that
    names the board, given the game's options (without them the board is unknown, and such an
    action is returned as decoded); of :data:`BOARD_INDEPENDENT` for any other, refused when it
    belongs to a variant the options leave out. :class:`RecordError` names the field that has
    no such value. Nothing is stored (the board's tables are built once per board and go with
    it)."""
    checked(action)
    find = BOARD_LOOKUPS.get(type(action))
    if find is not None:
        if options is None:
            return action
        board = board_from_text(options.board)
        build_board_tables(board)
        return find(action, board, options)
    variant = VARIANT_ACTIONS.get(type(action))
    if options is not None and variant is not None and not getattr(options, variant[0]):
        raise RecordError(f"action {action.kind!r} exists only in variant {variant[1]} "
                          f"({variant[0]}), which this game does not use")
    found = BOARD_INDEPENDENT.get(action)
    if found is None:
        raise RecordError(f"action {action.kind!r}: no such action ({str(action)[:80]})")
    return found


CODEC = ActionCodec(ACTION_CLASSES, intern=lookup)
EMERGENCY = BOARD_INDEPENDENT[Emergency()]


# ----- actions in the reader's language ----------------------------------------------------------

def _herb(herb: str) -> Any:
    from ...i18n import msg
    return msg(f"edora.herb.{herb}") if herb in HERBS else herb


def _row(row: str) -> Any:
    from ...i18n import msg
    return msg(f"edora.row.{row}") if row in ("SUN", "MOON", "STAR") else row


def action_message(action: Action) -> dict[str, Any] | None:
    """An action as a message (ids ``edora.action.*``), for lists of moves in the reader's
    language (the terminal); its English is ``str(action)``. None for an action of another game."""
    from ...i18n import msg
    from .public import RUNE_REWARD
    a = action
    if isinstance(a, StartSpace):
        return msg("edora.action.start", start=a.start, sanctuary=a.sanctuary)
    if isinstance(a, KeepTablet):
        return msg("edora.action.keep_tablet", tablet=a.tablet)
    if isinstance(a, ArrangeHerb):
        return msg("edora.action.arrange_herb", herb=_herb(a.herb), circle=a.circle + 1)
    if isinstance(a, Move):
        return msg("edora.action.move", to=a.to, cost=a.cost)
    if isinstance(a, ForestLeap):
        return msg("edora.action.leap", to=a.to)
    if isinstance(a, Emergency):
        return msg("edora.action.emergency")
    if isinstance(a, PlaceDie):
        args = dict(die=a.die, sanctuary=a.sanctuary, space=a.space, code=a.action)
        if a.value != a.die:
            return msg("edora.action.place_turned", value=a.value, **args)
        return msg("edora.action.place", **args)
    if isinstance(a, FoodChoice):
        dice = a.take != "provisions"
        return msg("edora.action.food_dice") if dice else msg("edora.action.food_provisions")
    if isinstance(a, TakeDie):
        return msg("edora.action.take_die", value=a.value)
    if isinstance(a, TakeTablet):
        return msg("edora.action.take_tablet", tablet=a.tablet, side=a.slot // 2, slot=a.slot)
    if isinstance(a, Brew):
        effect = msg(f"edora.potion.{a.potion}") if a.potion in POTION_EFFECTS else ""
        return msg("edora.action.brew", potion=a.potion, effect=effect)
    if isinstance(a, Stop):
        potions = a.what == "potions"
        return msg("edora.action.stop_potions") if potions else msg("edora.action.stop_dice")
    if isinstance(a, Skip):
        is_rune = a.what == "rune-stone"
        return msg("edora.action.skip_rune") if is_rune else msg("edora.action.skip_standing")
    if isinstance(a, TakeGem):
        gem = msg(f"edora.gem.{a.gem}") if a.gem in REWARD_NAMES else a.gem
        return msg("edora.action.gem", gem=gem, row=_row(a.row))
    if isinstance(a, StandingStone):
        stone = msg(f"edora.web.standing.{a.stone}") if a.stone in REWARD_NAMES else a.stone
        return msg("edora.action.standing_stone", stone=stone)
    if isinstance(a, RuneStone):
        rune = msg(f"edora.rune.{a.stone}") if a.stone in RUNE_REWARD else a.stone
        return msg("edora.action.rune_stone", rune=rune)
    if isinstance(a, RepeatReward):
        gain = msg(f"edora.gain.{a.reward}") if a.reward in REWARD_GAINS else a.reward
        return msg("edora.action.repeat", gain=gain)
    if isinstance(a, RaiseDie):
        return msg("edora.action.raise_die", value=a.value, sanctuary=a.sanctuary, space=a.space)
    if isinstance(a, FlipHerb):
        return msg("edora.action.flip_herb", herb=_herb(a.herb))
    if isinstance(a, TakeHerb):
        return msg("edora.action.take_herb", herb=_herb(a.herb))
    if isinstance(a, ActivateHerb):
        return msg("edora.action.activate_herb", herb=_herb(a.herb), other=_herb(a.other))
    return None
