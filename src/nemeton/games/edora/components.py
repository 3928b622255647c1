"""Edora's component tables: herbs (§4.5), potions (§4.6), tablets (§4.7), gems, dolmens.

Indices are the ints the state stores (a herb's is named ``HERB_VP`` and so on); the ids
(``H_VP``, ``P3a``, ``T5``) are what actions, views, records and the docs show.
"""

from __future__ import annotations

# ----- herbs (§4.5) ---------------------------------------------------------------------------
HERBS = ("H_FOOD", "H_MIST", "H_SICKLE", "H_KNOW", "H_AMULET", "H_DIE",
         "H_STAND", "H_LEAP", "H_RUNE", "H_FIRE", "H_VP", "H_TABLET")
(HERB_FOOD, HERB_MIST, HERB_SICKLE, HERB_KNOW, HERB_AMULET, HERB_DIE,
 HERB_STAND, HERB_LEAP, HERB_RUNE, HERB_FIRE, HERB_VP, HERB_TABLET) = range(12)
HERB_INDEX = {h: i for i, h in enumerate(HERBS)}
HERBS_PER_PLAYER = len(HERBS)      # per-player herb arrays are HERBS_PER_PLAYER long
HERB_EFFECTS = {
    "H_FOOD": "provisions action: +6 more provisions and +3 prestige",
    "H_MIST": "mistletoe action: +1 mistletoe and +3 prestige",
    "H_SICKLE": "sickle action or potion: +2 extra steps",
    "H_KNOW": "knowledge action or potion: +2 extra steps",
    "H_AMULET": "amulet action: multiplier +1",
    "H_DIE": "before placing a die: change its value by up to 2 (1..6)",
    "H_STAND": "after a standing-stone action: take one of its rewards once more",
    "H_LEAP": "forest leap: 1 provision to any sanctuary of the same glade",
    "H_RUNE": "rune action: the die counts 2 more",
    "H_FIRE": "for each fire pit you close: take one of its rewards once more",
    "H_VP": "every award of exactly 3 prestige gives 5",
    "H_TABLET": "tablet action: gain the 2 oracle rewards again",
}
ON_BOARD, ACTIVE, INACTIVE = 0, 1, 2
HERB_STATES = ("board", "active", "inactive")

# ----- potions (§4.6; P3a costs 3 per Q1) ----------------------------------------------------
POTIONS = ("P1a", "P1b", "P1c", "P2a", "P2b", "P2c", "P3a", "P3b", "P3c",
           "P4a", "P4b", "P4c", "P5a", "P5b", "P5c", "P6a", "P6b", "P6c")
POTION_INDEX = {p: i for i, p in enumerate(POTIONS)}
POTION_COST = tuple(int(p[1]) for p in POTIONS)
POTION_EFFECTS = {
    "P1a": "standing-stone action here",
    "P1b": "turn one of your inactive herbs face up",
    "P1c": "set one of your placed dice to 6 (new competition there)",
    "P2a": "take an unreleased herb, active",
    "P2b": "1 die from the overview board, +6 provisions",
    "P2c": "sickle +3",
    "P3a": "+10 prestige",
    "P3b": "rune-stone action as if the die showed 3",
    "P3c": "tablet action",
    "P4a": "knowledge +3",
    "P4b": "2 dice from the overview board, +6 provisions, +5 prestige",
    "P4c": "take 2 unreleased herbs, active",
    "P5a": "amulet action x5, row of your choice",
    "P5b": "rune-stone action as if the die showed 6",
    "P5c": "two standing-stone actions here",
    "P6a": "set up to 3 of your placed dice to 6 (new competitions)",
    "P6b": "two tablet actions",
    "P6c": "+25 prestige",
}

# ----- tablets (§4.7): 15 types x 2 --------------------------------------------------------
TABLETS = tuple(f"T{i}" for i in range(1, 16))
TABLET_INDEX = {t: i for i, t in enumerate(TABLETS)}
TABLET_CONDITIONS = {
    "T1": ">= 4 of your 6 standing stones placed",
    "T2": "your dice on >= 3 of the 4 start sanctuaries",
    "T3": "your dice on a whole line of four",
    "T4": "3 of your dice of equal value on a path A-B-C",
    "T5": "you own >= 5 dolmens",
    "T6": ">= 4 of your 6 rune stones placed",
    "T7": "knowledge marker advanced >= 6 steps",
    "T8": "you own >= 4 tablets",
    "T9": ">= 6 active herbs",
    "T10": "you occupy every sanctuary of >= 3 glades",
    "T11": ">= 5 gems on your amulet",
    "T12": "your dice in >= 6 different glades",
    "T13": "your dice on >= 4 sanctuaries of portal glades",
    "T14": "you own >= 4 potions",
    "T15": "highest die on >= 5 sanctuaries that hold an opponent's die",
}
TABLET_COPIES = 2

# ----- sanctuaries ---------------------------------------------------------------------------
# Per-space arrays are flat: space i of sanctuary s is entry s * SPACE_STRIDE + i (at most 4
# spaces per sanctuary, one per player).
SPACE_STRIDE = 4

# ----- dolmens --------------------------------------------------------------------------------
DOLMEN_COLOURS = ("A", "B", "C", "D", "E", "F")
BEIGE_BONUS = (8, 6, 4)


# ----- names people read (actions, the log and the screen use them) ---------------------------
REWARD_GAINS = {"VP": "3 prestige", "KNOW": "a knowledge step", "FOOD": "3 provisions",
                "DIE": "a die from the overview board", "MIST": "a mistletoe", "SICKLE": "a sickle step"}
REWARD_NAMES = {"VP": "prestige", "KNOW": "knowledge", "FOOD": "provisions", "DIE": "die",
                "MIST": "mistletoe", "SICKLE": "sickle"}
HERB_NAMES = {"H_FOOD": "provisions herb", "H_MIST": "mistletoe herb", "H_SICKLE": "sickle herb",
              "H_KNOW": "knowledge herb", "H_AMULET": "amulet herb", "H_DIE": "die herb",
              "H_STAND": "standing-stone herb", "H_LEAP": "forest-leap herb", "H_RUNE": "rune herb",
              "H_FIRE": "fire herb", "H_VP": "prestige herb", "H_TABLET": "tablet herb"}
RUNE_NAMES = {"MIST": "mistletoe", "DIE": "die", "KNOW": "knowledge", "SICKLE_STEP": "sickle",
              "PRESTIGE_POINT": "prestige", "PROVISION": "provisions"}
RUNE_UNIT_WORDS = {"MIST": ("mistletoe", "mistletoe"), "DIE": ("die", "dice"),
                   "KNOW": ("knowledge step", "knowledge steps"), "SICKLE_STEP": ("sickle step", "sickle steps"),
                   "PRESTIGE_POINT": ("prestige", "prestige"), "PROVISION": ("provision", "provisions")}


def space_name(code: str) -> str:
    """A space code in words: ``MI2P1`` -> "2 mistletoe, brew up to 1 potion"."""
    if code == "FD":
        return "provisions"
    if code == "TB":
        return "tablet"
    if code == "SS":
        return "standing stone"
    if code == "RS":
        return "rune stone"
    if code.startswith("KN"):
        return f"knowledge +{code[2:]}"
    if code.startswith("SI"):
        return f"sickle +{code[2:]}"
    if code.startswith("MI"):
        m, _, n = code[2:].partition("P")
        return f"{m} mistletoe, brew up to {n} potion" + ("" if n == "1" else "s")
    if code.startswith("AM-"):
        _, row, times = code.split("-", 2)
        return f"amulet {row} row x{times[1:]}"
    return code


def herb_name(herb: str) -> str:
    """``H_LEAP`` -> "the forest-leap herb"."""
    return "the " + HERB_NAMES.get(herb, herb)
