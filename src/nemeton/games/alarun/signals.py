"""Alarún: how often each kind of potion line scores, and what the colour bonus is worth."""

from __future__ import annotations

from ...engine.signals import GameSignals, Measurements, add

LINES = "potion lines per game (all seats)"
SOURCES = "points per seat by source"
BONUS = "the colour bonus"


def extract(log, agents) -> Measurements:
    out: Measurements = {}
    totals: dict[int, float] = {}
    bonus: dict[int, float] = {}
    potions: dict[int, float] = {}
    players = len(agents)
    for e in log:
        kind = e["kind"]
        if kind == "potion_scored":
            if e["points"] > 0 and e["by"]:
                add(out, LINES, f"{e['by']} x{e['strength']}")
            else:
                add(out, LINES, "no potion")
        elif kind == "final_score":
            seat = e["player"]
            totals[seat], bonus[seat], potions[seat] = e["total"], e["colour_bonus"], e["potions"]
            for part in ("potions", "centum_auri", "colour_bonus"):
                add(out, SOURCES, part, e[part] / players)
        elif kind == "colour_bonus":
            add(out, BONUS, "cards of the secret colour (per seat)", e["cards"] / players)
    if totals:
        best = max(totals.values())
        without = {s: totals[s] - bonus[s] for s in totals}
        best_without = max(without.values())
        winners = {s for s in totals if totals[s] == best}
        winners_without = {s for s in without if without[s] == best_without}
        # the tie-break on potions is ignored here: a change of the set of best totals counts
        add(out, BONUS, "games whose winner the bonus changed", float(winners != winners_without))
        add(out, BONUS, "bonus points of the winner", sum(bonus[s] for s in winners) / len(winners))
    return out


SIGNALS = GameSignals(extract, {
    LINES: "each scoring line (rows A-E, columns F-J) by what it shares (ingredient or colour) and its "
           "strength (cards in the stretch); 'no potion' = a line that scored nothing",
    SOURCES: "mean points per seat from potions, Centum auri and the secret colour's bonus (final_score events)",
    BONUS: "cards of the seat's secret colour, the winner's bonus points, and the share of games whose "
           "winner(s) would differ without the colour bonus",
})
