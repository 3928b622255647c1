"""Balance reports: one self-contained HTML file with its plots embedded.

A report covers one tournament, or a rule-variant sweep (the same tournament under each
value, with the same deals and seats). For each tournament it shows the agents' ratings and
win shares, seat and first-player advantage with their tests, score distributions per seat
and per agent, game length and the game's own signals from the public event log
(the game's ``signals.py``, :mod:`nemeton.engine.signals`); for a sweep, each variant's paired differences from the
first with 95% intervals. Plots are drawn by matplotlib (Agg, no display needed) and
embedded as base64 PNG images, so the file can be mailed or opened anywhere offline.
"""

from __future__ import annotations

import base64
import html
import io
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..engine import get_game
from ..engine.signals import GameSignals
from .stats import ConfidenceSequence, Estimate, mean_interval
from .summary import Difference, Summary, paired_differences, summarise
from .tournament import Tournament

WIDTH, HEIGHT = 7.5, 3.6


@dataclass
class Variant:
    label: str  # "standard" or "action_cap=2"
    tournament: Tournament
    summary: Summary = field(init=False)

    def __post_init__(self) -> None:
        self.summary = summarise(self.tournament)


# ----- plotting ---------------------------------------------------------------------------------

def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt
    return plt


def _png(fig) -> str:
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _img(data: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _bars(labels: Sequence[str], estimates: Sequence[Estimate], title: str, line: float | None = None,
          xlabel: str = "", percent: bool = True) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH, max(1.6, 0.45 * len(labels) + 1.0)))
    y = list(range(len(labels)))
    means = [e.mean for e in estimates]
    low = [max(0.0, e.mean - e.low) for e in estimates]
    high = [max(0.0, e.high - e.mean) for e in estimates]
    ax.barh(y, means, xerr=[low, high], color="#6a8fb5", ecolor="#333333", capsize=3)
    if any(m < 0 for m in means):
        ax.axvline(0, color="#333333", linewidth=0.8)
    ax.set_yticks(y, [_short(label) for label in labels])
    ax.invert_yaxis()
    if line is not None:
        ax.axvline(line, color="#c0392b", linestyle="--", linewidth=1, label=f"fair share {line:.0%}")
        ax.legend(loc="lower right", fontsize=8)
    if percent:
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    return _png(fig)


def _short(label: str, most: int = 40) -> str:
    return label if len(label) <= most else label[:most - 1] + "…"


def _histograms(series: Sequence[tuple[str, Sequence[float]]], title: str, xlabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    values = [v for _, vs in series for v in vs]
    if values:
        lo, hi = min(values), max(values)
        bins = min(30, max(5, int(hi - lo) + 1)) if hi > lo else 5
        for label, vs in series:
            if vs:
                ax.hist(vs, bins=bins, range=(lo, hi + 1e-9), alpha=0.5, label=_short(label), histtype="stepfilled")
        ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    return _png(fig)


def _boxes(series: Sequence[tuple[str, Sequence[float]]], title: str, ylabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    data = [list(vs) or [0.0] for _, vs in series]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(series) + 1), [_short(label, 24) for label, _ in series], fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    return _png(fig)


def _ratings(summary: Summary) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH, max(1.6, 0.5 * len(summary.agent_rows) + 1.0)))
    rows = summary.agent_rows
    y = list(range(len(rows)))
    ax.errorbar([r.rating.mu for r in rows], y, xerr=[3 * r.rating.sigma for r in rows], fmt="o",
                color="#2c3e50", capsize=4)
    ax.set_yticks(y, [_short(r.agent) for r in rows])
    ax.invert_yaxis()
    ax.set_title("OpenSkill (Plackett-Luce) rating: mu ± 3 sigma", fontsize=10)
    ax.set_xlabel("rating")
    return _png(fig)


def _sequence(t: Tournament) -> str | None:
    """The confidence sequence of the first agent's share, block by block."""
    if t.decision is None:
        return None
    schedule = t.config.schedule()
    done = {o.index: o for o in t.outcomes}
    blocks = schedule.blocks_upto(len(done))
    cs = ConfidenceSequence()
    xs, lows, highs, means = [], [], [], []
    for block in blocks:
        if any(i not in done for i in block):
            break
        cs.update(min(1.0, sum(done[i].share(0) for i in block) / len(block)))
        est = cs.interval()
        xs.append(block.stop)
        lows.append(est.low)
        highs.append(est.high)
        means.append(est.mean)
    if not xs:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    ax.fill_between(xs, lows, highs, color="#aed6f1", label="95% confidence sequence")
    ax.plot(xs, means, color="#2c3e50", label="running share")
    ax.axhline(t.decision.line, color="#c0392b", linestyle="--", label=f"line {t.decision.line:.0%}")
    ax.set_ylim(0, 1)
    ax.set_xlabel("games")
    ax.set_title(f"{t.config.agents[0]}: share of the wins as the games came in", fontsize=10)
    ax.legend(fontsize=8)
    return _png(fig)


def _differences(diffs: Sequence[Difference], title: str) -> str:
    """The differences in shares of the wins (the other measures have their own units: see the table)."""
    shares = [d for d in diffs if "share" in d.what]
    return _bars([d.what for d in shares], [d.difference for d in shares], title)


# ----- the game's own signals ------------------------------------------------------------------

def signals_for(game: str) -> GameSignals | None:
    """What the arena measures of ``game`` (its ``GameSpec.signals``), or None."""
    spec = get_game(game)
    return spec.signals() if spec.signals is not None else None


def game_signals(t: Tournament) -> dict[str, dict[str, Estimate]] | None:
    """Mean per game, with a 95% interval, of every signal the game's extractor reports."""
    extractor = signals_for(t.config.game)
    if extractor is None:
        return None
    per_game = []
    for o in t.outcomes:
        if o.record is None:
            continue
        names = [t.config.agents[a] for a in o.seats]
        per_game.append(extractor.extract(o.replay().log(None), names))
    if not per_game:
        return None
    out: dict[str, dict[str, Estimate]] = {}
    for group in extractor.groups:
        labels = sorted({label for g in per_game for label in g.get(group, {})})
        if labels:
            out[group] = {label: _nonnegative([g.get(group, {}).get(label, 0.0) for g in per_game])
                          for label in labels}
    return out


def _nonnegative(values: Sequence[float]) -> Estimate:
    """A mean's Student-t interval, cut at 0 for measures that cannot be negative (counts, points)."""
    e = mean_interval(values)
    return Estimate(e.mean, max(0.0, e.low), e.high, e.n) if min(values) >= 0 else e


# ----- HTML -------------------------------------------------------------------------------------

STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:.5rem 0}
h2{border-bottom:2px solid #6a8fb5;margin-top:2.5rem}.note{color:#555;font-size:.9rem}"""


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _pct(e: Estimate) -> str:
    return f"{e.mean:.1%} [{e.low:.1%}, {e.high:.1%}]"


def _tournament_html(v: Variant) -> list[str]:
    s, t = v.summary, v.tournament
    parts = [f"<h2>{html.escape(v.label)}</h2>",
             f"<p>{s.games} games, {s.players} players, seed {s.seed}, line-up {html.escape(s.lineup)}; options: "
             + html.escape(", ".join(f"{k}={val}" for k, val in s.options.items()) or "none") + "</p>"]
    if not s.games:
        return parts + ["<p>No games.</p>"]
    parts.append("<h3>Agents</h3>")
    parts.append(_table(["agent", "games", "share of the wins [95% CI]", "fair share", "mean score", "mu", "sigma",
                         "ordinal (mu - 3 sigma)"],
                        [[a.agent, a.games, _pct(a.share), f"{a.fair_share:.1%}", f"{a.mean_score:.2f}",
                          f"{a.rating.mu:.2f}", f"{a.rating.sigma:.2f}", f"{a.rating.ordinal:.2f}"]
                         for a in s.agent_rows]))
    parts.append(_img(_ratings(s), "agent ratings"))
    parts.append(_img(_bars([a.agent for a in s.agent_rows], [a.share for a in s.agent_rows],
                            "share of the wins per agent (95% Wilson interval)"), "win shares per agent"))
    sequence = _sequence(t)
    d = t.decision
    if sequence and d is not None:  # (there is a sequence only for a decision)
        parts.append(f"<p>Sequential stopping against {d.line:.0%}: {html.escape(d.verdict or 'undecided')} after "
                     f"{d.games} games ({_pct(d.interval)}, anytime-valid).</p>")
        parts.append(_img(sequence, "confidence sequence"))
    parts.append("<h3>Seat and first-player advantage</h3>")
    fair = 1 / len(s.units)
    names = [("seat " if len(u) == 1 else "seats ") + ", ".join(map(str, u)) for u in s.units]
    parts.append(_img(_bars(names + ["first player"], list(s.seat_shares) + [s.first_player],
                            "share of the wins per seat (95% Wilson interval)", line=fair), "seat advantage"))
    rows = []
    if s.seat_test:
        rows.append(["all seats win equally often", s.seat_test.name, f"{s.seat_test.statistic:.3f}",
                     f"{s.seat_test.p_value:.4f}"])
    if s.first_player_test:
        rows.append(["the first player wins its fair share", s.first_player_test.name,
                     f"{s.first_player_test.statistic:.0f} wins", f"{s.first_player_test.p_value:.4f}"])
    parts.append(_table(["hypothesis", "test", "statistic", "p-value"], rows))
    parts.append('<p class="note">The first player is the seat of the game\'s first action. Agents are rotated '
                 "over the seats with the same deals, so over complete blocks their strength cancels out of "
                 "these figures.</p>")
    parts.append("<h3>Scores</h3>")
    parts.append(_img(_boxes([(n, sc) for n, sc in zip(names, s.unit_scores())], "scores per seat", "score"),
                      "scores per seat"))
    parts.append(_img(_histograms([(a.agent, a.scores) for a in s.agent_rows], "scores per agent", "score"),
                      "scores per agent"))
    parts.append("<h3>Game length</h3>")
    steps, rounds = mean_interval(s.steps), mean_interval(s.rounds)
    parts.append(f"<p>{steps.mean:.1f} actions per game [{steps.low:.1f}, {steps.high:.1f}], "
                 f"{rounds.mean:.2f} rounds [{rounds.low:.2f}, {rounds.high:.2f}].</p>")
    parts.append(_img(_histograms([("actions", s.steps)], "actions per game", "actions"), "game length"))
    signals = game_signals(t)
    if signals and (extractor := signals_for(t.config.game)) is not None:  # (signals come from it)
        groups = extractor.groups
        parts.append(f"<h3>{html.escape(s.title)}: the game's own signals</h3>")
        for group, values in signals.items():
            parts.append(_img(_bars(list(values), list(values.values()), f"{group} (mean, 95% CI)",
                                    percent=False), group))
            parts.append(f'<p class="note">{html.escape(groups[group])}</p>')
            parts.append(_table(["", "mean per game [95% CI]"],
                                [[k, f"{e.mean:.3f} [{e.low:.3f}, {e.high:.3f}]"] for k, e in values.items()]))
    return parts


def write_report(path: str, variants: Sequence[Variant], title: str | None = None) -> None:
    """Write the report of ``variants`` (one tournament, or a sweep's, the first its baseline)."""
    first = variants[0].summary
    title = title or f"{first.title}: balance report"
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
             f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class=note>Nemeton arena, {time.strftime('%Y-%m-%d %H:%M')}. Agents: "
             f"{html.escape(', '.join(first.agents))}. Win shares: 1 per sole win, 1/k per k-way shared win, "
             "a team's share once per team.</p>"]
    if len(variants) > 1:
        parts.append("<h2>Rule variants against the baseline</h2>")
        parts.append(f"<p>Baseline: {html.escape(variants[0].label)}. Every variant replays the same deals with "
                     "the same seats (common random numbers); differences are paired game by game, with "
                     "95% Student-t intervals.</p>")
        for v in variants[1:]:
            diffs = paired_differences(variants[0].tournament, v.tournament)
            parts.append(f"<h3>{html.escape(v.label)}</h3>")
            parts.append(_table(["measure", "baseline", "variant", "difference [95% CI]"],
                                [[d.what, f"{d.baseline:.3f}", f"{d.variant:.3f}",
                                  f"{d.difference.mean:+.3f} [{d.difference.low:+.3f}, {d.difference.high:+.3f}]"]
                                 for d in diffs]))
            parts.append(_img(_differences(diffs, f"shares of the wins: {v.label} minus {variants[0].label} "
                                                  "(95% paired interval)"), "differences"))
    for v in variants:
        parts.extend(_tournament_html(v))
    parts.append("</body></html>")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts))
