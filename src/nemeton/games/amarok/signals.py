"""Amarok: how often each effect decides a round, and how long each level lasts."""

from __future__ import annotations

from ...engine.signals import GameSignals, Measurements, add

DECIDED = "how rounds end (share of rounds)"
EFFECTS = "effects played (per round)"
LEVELS = "rounds spent at each level (per seat)"
LENGTH = "game length"


def extract(log, agents) -> Measurements:
    out: Measurements = {}
    rounds = 0
    seasons = claws = 0
    players = len(agents)
    at_level = [0] * players  # rounds each seat has spent at its current level
    spent: dict[int, list[int]] = {}  # level -> completed stays (rounds)
    levels = [0] * players
    turns = 0
    for e in log:
        kind = e["kind"]
        if kind == "take":
            turns += 1
        elif kind == "season":
            seasons += 1
        elif kind == "claw":
            claws += 1
        elif kind == "round_end":
            rounds += 1
            reason = e["reason"]
            if reason == "mating":
                label = "a second heart (mating)"
            elif reason == "all_trapped":
                label = "everyone trapped"
            elif e.get("trapped"):
                label = "totals, with a wolf trap"
            else:
                label = "totals"
            add(out, DECIDED, label)
            for seat in range(players):
                at_level[seat] += 1
                if e["levels"][seat] != levels[seat]:
                    spent.setdefault(levels[seat], []).append(at_level[seat])
                    at_level[seat] = 0
            levels = list(e["levels"])
    if rounds:
        for label in list(out.get(DECIDED, {})):
            out[DECIDED][label] /= rounds
        add(out, EFFECTS, "change of season", seasons / rounds)
        add(out, EFFECTS, "claw", claws / rounds)
        add(out, LENGTH, "rounds", rounds)
        add(out, LENGTH, "turns per round", turns / rounds)
    for level, stays in sorted(spent.items()):
        add(out, LEVELS, f"level {level}", sum(stays) / len(stays))
    return out


SIGNALS = GameSignals(extract, {
    DECIDED: "what ended each round (round_end reason): the second heart in front (mating), the totals "
             "(with or without a wolf trap in front), or every seat trapped",
    EFFECTS: "changes of season and claws played per round",
    LEVELS: "mean number of rounds a seat stays at a level (round wins) before winning a round there; "
            "stays cut short by the end of the game are left out",
    LENGTH: "rounds per game and takes (turns) per round",
})
