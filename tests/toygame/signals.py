"""What the arena measures: how games end."""

from __future__ import annotations

from nemeton.engine.signals import GameSignals, Measurements, add

ENDS = "how games end (share of games)"


def extract(log, agents) -> Measurements:
    out: Measurements = {}
    for e in log:
        if e["kind"] in ("fold_win", "showdown"):
            add(out, ENDS, e["kind"])
    return out


SIGNALS = GameSignals(extract, {ENDS: "a fold or a showdown"})
