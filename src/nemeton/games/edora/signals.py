"""The Druids of Edora: points per scoring step, competitions and fire pits won, potions and
herbs used."""

from __future__ import annotations

from ...engine.signals import GameSignals, Measurements, add

STEPS = "points per seat by scoring step"
WON = "competitions and fire pits won (per game, by agent)"
POTIONS = "potions brewed (per game)"
HERBS = "herbs used (per game)"

SCORING = {"score_leftovers": "leftovers", "score_sickle": "sickle", "score_tablets": "tablets",
           "score_amulet": "amulet", "score_sanctuaries": "sanctuaries"}


def extract(log, agents) -> Measurements:
    out: Measurements = {}
    players = len(agents)
    for e in log:
        kind = e["kind"]
        if kind in SCORING:
            add(out, STEPS, SCORING[kind], e["points"] / players)
        elif kind == "final_score":
            add(out, STEPS, "prestige track", e["prestige_track"] / players)
        elif kind == "competition":
            add(out, WON, f"competitions: {agents[e['player']]}")
        elif kind == "fire_pit":
            add(out, WON, f"fire pits: {agents[e['player']]}")
        elif kind == "brew":
            add(out, POTIONS, e["potion"])
        elif kind in ("activate_herb", "take_herb"):
            add(out, HERBS, f"{e['herb']} ({'activated' if kind == 'activate_herb' else 'taken'})")
        elif kind == "repeat_reward":
            add(out, HERBS, f"{e['herb']} (reward repeated)")
    return out


SIGNALS = GameSignals(extract, {
    STEPS: "mean points per seat from each step of the final scoring (score_* events) and from the "
           "prestige track before it",
    WON: "competitions (highest die in a sanctuary) and fire pits enclosed, by the agent that won them; "
         "with several seats of one agent, its seats' wins add up",
    POTIONS: "how often each potion is brewed (brew events)",
    HERBS: "herbs turned face up, taken, or whose reward was repeated",
})
