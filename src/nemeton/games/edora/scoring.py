"""Tablet conditions (§4.7) and the five final scoring steps (§6), in order."""

from __future__ import annotations

from .components import ACTIVE, HERBS_PER_PLAYER, SPACE_STRIDE, TABLETS


def _values_at(state, p: int) -> dict[int, int]:
    """Sanctuary -> bitmask of the values of p's dice there."""
    out: dict[int, int] = {}
    owner, value = state.owner, state.value
    for s in range(state.board.size):
        if (state.die_mask[p] >> s) & 1:
            m = 0
            for i in range(state.n):
                if owner[s * SPACE_STRIDE + i] == p:
                    m |= 1 << value[s * SPACE_STRIDE + i]
            out[s] = m
    return out


def _popcount(x: int) -> int:
    return bin(x).count("1")


def tablet_met(state, p: int, t: int) -> bool:
    """Whether tablet type t (0 = T1) is met by player p now (with all dice on the board)."""
    b = state.board
    mask = state.die_mask[p]
    name = TABLETS[t]
    if name == "T1":
        return _popcount(state.standing[p]) >= 4
    if name == "T2":
        return sum(1 for s in b.start_sanctuary if (mask >> s) & 1) >= 3
    if name == "T3":
        return any(all((mask >> s) & 1 for s in line) for line in b.lines_of_four)
    if name == "T4":                       # Q12: equal values on A-B-C along paths
        vals = _values_at(state, p)
        for s, m in vals.items():
            for v in range(1, 7):
                if (m >> v) & 1 and sum(1 for u in b.neighbours[s] if (vals.get(u, 0) >> v) & 1) >= 2:
                    return True
        return False
    if name == "T5":
        return state.dolmens[p] + state.beige_dolmens[p] >= 5
    if name == "T6":
        return _popcount(state.runes[p]) >= 4
    if name == "T7":
        return state.knowledge[p] >= 6
    if name == "T8":
        return len(state.tablets[p]) >= 4
    if name == "T9":
        return state.herb_state[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * (p + 1)].count(ACTIVE) >= 6
    if name == "T10":
        return sum(1 for gm in b.glade_masks if mask & gm == gm) >= 3
    if name == "T11":
        return _popcount(state.gem_mask[p]) >= 5
    if name == "T12":
        return len({b.glade_of[s] for s in range(b.size) if (mask >> s) & 1}) >= 6
    if name == "T13":
        return sum(1 for s in range(b.size) if (mask >> s) & 1 and b.portal[b.glade_of[s]]) >= 4
    if name == "T14":
        return sum(1 for o in state.potion_owner if o == p) >= 4
    # T15: highest die (ties §5) on >= 5 sanctuaries that also hold an opponent's die
    count = 0
    for s in range(b.size):
        if not (mask >> s) & 1 or state.used[s] < 2:
            continue
        winner, _ = state.highest_die(s)
        if winner == p and any(state.owner[s * SPACE_STRIDE + i] not in (-1, p) for i in range(state.n)):
            count += 1
    return count >= 5


def amulet_rows(state, p: int) -> tuple[int, bool]:
    """(rows holding 2 gems, whether all three left slots are filled)."""
    am = state.amulet[6 * p:6 * p + 6]
    rows = sum(1 for r in range(3) if am[2 * r] >= 0 and am[2 * r + 1] >= 0)
    return rows, all(am[2 * r] >= 0 for r in range(3))


def amulet_points(state, p: int) -> int:
    """10 per row holding 2 gems, +20 when all three left slots are filled (max 50)."""
    rows, left = amulet_rows(state, p)
    return 10 * rows + (20 if left else 0)


def sanctuary_collections(state) -> list[int]:
    """Step 5: on each sanctuary only the highest die stays; its owner collects it and every
    standing and rune stone placed there (any colour)."""
    collected = [0] * state.n
    for s in range(state.board.size):
        if state.used[s]:
            winner, _ = state.highest_die(s)
            collected[winner] += 1 + state.standing_at[s] + state.rune_at[s]
    return collected


def final_scoring(state) -> list[dict]:
    """The five steps of §6 for every player: leftovers, sickle, tablets, amulet, sanctuaries."""
    b = state.board
    collected = sanctuary_collections(state)
    out = []
    for p in range(state.n):
        dice = sum(state.reserve[7 * p + 1:7 * p + 7])
        leftovers = state.provisions[p] // 6 + state.mistletoe[p] + dice
        sickle = b.sickle_score[state.sickle[p]]
        met = [TABLETS[t] for t in state.tablets[p] if tablet_met(state, p, t)]
        tablets = 10 * len(met)
        amulet = amulet_points(state, p)
        multiplier = b.knowledge_multiplier[state.knowledge[p]]
        sanctuaries = collected[p] * multiplier
        total = state.prestige[p] + leftovers + sickle + tablets + amulet + sanctuaries
        out.append({"prestige": state.prestige[p], "leftovers": leftovers, "sickle": sickle,
                    "tablets": tablets, "tablets_met": met, "amulet": amulet,
                    "collected": collected[p], "multiplier": multiplier,
                    "sanctuaries": sanctuaries, "total": total})
    return out


def record_final_scoring(state) -> None:
    """The log of the final scoring: each step for every player in the rulebook's order, each
    total, the tie-break when the best total is shared, and the winner(s)."""
    final = state.final
    n = state.n
    event = state._event
    for p in range(n):
        dice = sum(state.reserve[7 * p + v] for v in range(1, 7))
        event("score_leftovers", None, player=p, provisions=state.provisions[p], mistletoe=state.mistletoe[p],
              dice=dice, points=final[p]["leftovers"])
    for p in range(n):
        event("score_sickle", None, player=p, position=state.sickle[p], points=final[p]["sickle"])
    for p in range(n):
        met = final[p]["tablets_met"]
        unmet = [TABLETS[t] for t in state.tablets[p]]
        for t in met:
            unmet.remove(t)
        event("score_tablets", None, player=p, met=list(met), unmet=unmet, points=final[p]["tablets"])
    for p in range(n):
        rows, left = amulet_rows(state, p)
        event("score_amulet", None, player=p, full_rows=rows, left_column=left, points=final[p]["amulet"])
    for p in range(n):
        event("score_sanctuaries", None, player=p, collected=final[p]["collected"],
              multiplier=final[p]["multiplier"], points=final[p]["sanctuaries"])
    for p in range(n):
        event("final_score", None, player=p, prestige_track=final[p]["prestige"], total=final[p]["total"])
    best = max(f["total"] for f in final)
    tied = [p for p in range(n) if final[p]["total"] == best]
    if len(tied) > 1:
        event("tie_break", None, players=tied, total=best)
    event("game_won", None, winners=state.winners(), total=best)
