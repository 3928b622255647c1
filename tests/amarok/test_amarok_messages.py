"""Amarok's event log as messages (issue 30): every kind and variant, met in seeded games over
3 to 6 players, both team modes and the options (and built by hand where a game rarely or
never meets it), renders for every viewer (the spectator included) in English, Italian and
Spanish: every id in the language's own catalogue (no English fallback), no placeholder
left, seats as parts; and a few sentences exactly as an Italian or a Spanish player reads them."""

import json
import random
import re

import pytest

from nemeton.engine import make
from nemeton.i18n import LANGUAGES, catalogue, render, render_parts

NAMES = ["Ann", "Bob", "Cleo", "Dara", "Emrys", "Fionn"]
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")

# a custom deck: colours the catalogues do not know ("green") or none at all, values below zero
CUSTOM = "\n".join(
    f'[[cards]]\nid = "{c[:1].upper() or "X"}{v}"\n' + (f'colour = "{c}"\n' if c else "") + f"value = {v}\n"
    + (f'symbol = "{s}"\n' if s else "")
    for i, (c, v) in enumerate((c, v) for c in ("green", "red", "") for v in (-2, 0, 1, 3, 5, 7, 9))
    for s in [("heart", "claw", "season", "trap", None)[i % 5]])

CONFIGS = [{"players": 3}, {"players": 4}, {"players": 5}, {"players": 6},
           {"players": 4, "teams": True}, {"players": 6, "teams": True},
           {"players": 4, "teams": True, "partner_hand": True},
           {"players": 6, "teams": True, "partner_hand": True},
           {"players": 3, "rounds_to_win": 1}, {"players": 5, "rounds_to_win": 2},
           {"players": 3, "deck": CUSTOM}, {"players": 4, "teams": True, "deck": CUSTOM}]


def _walk(message):
    """(ids, seats) of a message and every message nested in it."""
    ids, seats = [message["id"]], []
    stack = list((message.get("args") or {}).values())
    while stack:
        arg = stack.pop()
        if isinstance(arg, dict) and "seat" in arg:
            seats.append(arg["seat"])
        elif isinstance(arg, dict) and "msg" in arg:
            more_ids, more_seats = _walk(arg["msg"])
            ids += more_ids
            seats += more_seats
        elif isinstance(arg, dict) and "list" in arg:
            stack.extend(arg["list"])
    return ids, seats


def _games(seeds=4):
    for config in CONFIGS:
        for seed in range(seeds):
            state = make("amarok", seed=seed, **config).record_events()
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
            yield state


@pytest.fixture(scope="module")
def played():
    """(state, viewer, entry) of every entry of every viewer's log in the seeded games."""
    out = []
    for state in _games():
        for viewer in (None, *range(state.num_players)):
            out += [(state, viewer, e) for e in state.log(viewer)]
    return out


def _synthetic():
    """(state, viewer, message) for variants random games rarely or never reach: an empty
    river, a mating shared by two players, every player trapped, teams sharing the victory,
    a shared game won by the viewer and another."""
    three = make("amarok", players=3, seed=0)
    teams = make("amarok", players=6, teams=True, seed=0)
    deal = {"i": 0, "round": 2, "seat": None, "kind": "deal", "holder": 1, "objective": "lone_wolf",
            "river": [], "deck_size": 1}
    mating = {"i": 9, "round": 1, "seat": None, "kind": "round_end", "reason": "mating", "player": 0,
              "winners": [0, 2], "levels": [1, 0, 1], "objective": "wolf_pack",
              "fronts": [["R0", "R6"], ["R1", "R2"], ["B3", "B8"]], "totals": [6, 3, 11], "trapped": []}
    shared = {"i": 9, "round": 5, "seat": None, "kind": "game_end", "winners": [0, 1, 3, 4],
              "levels": [3, 3, 1, 3, 3, 1]}
    trapped = {"i": 9, "round": 3, "seat": None, "kind": "round_end", "reason": "all_trapped", "winners": [],
               "levels": [1, 1, 0], "objective": "lone_wolf", "fronts": [["R9", "R2"], ["B1", "B2"], ["R9", "B4"]],
               "totals": [11, 3, 13], "trapped": [0, 1, 2]}
    tie = {"i": 9, "round": 5, "seat": None, "kind": "game_end", "winners": [0, 2], "levels": [3, 1, 3]}
    out = []
    for viewer in (None, 0, 1, 2):
        out += [(three, viewer, three.event_message(e, viewer)) for e in (deal, mating, trapped, tie)]
    for viewer in (None, 0, 2, 5):
        out.append((teams, viewer, teams.event_message(shared, viewer)))
    return out


def _check(state, viewer, message):
    """The message renders in every language from that language's own catalogue, with no
    placeholder left and its seats as parts."""
    ids, seats = _walk(message)
    for lang in LANGUAGES:
        missing = [i for i in ids if i not in catalogue(lang)]
        assert not missing, f"{lang}: no {missing} (English fallback or no message at all)"
        text, parts = render_parts(message, lang, state.num_players)
        assert not PLACEHOLDER.search(text), f"{lang}: {text}"
        assert "\ue000" not in text and "\ue001" not in text
        assert {p["seat"] for p in parts if isinstance(p, dict)} == set(seats), (lang, text, parts)
        named = render(message, lang, seat=lambda n: NAMES[n])
        assert not PLACEHOLDER.search(named) and named[:1] == named[:1].upper() and named.endswith("."), named
    return set(ids)


def test_every_entry_renders_in_every_language(played):
    seen = set()
    for state, viewer, entry in played:
        key = json.dumps([state.num_players, entry["msg"]], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        _check(state, viewer, entry["msg"])
    assert len(seen) > 1000


def test_every_message_of_the_catalogue_is_met():
    """Every id of the English catalogue is used by some entry (the variants' coverage) and
    the log in each language is the message rendered in it."""
    used = set()
    for state in _games(seeds=2):
        for viewer in (None, *range(state.num_players)):
            english = state.log(viewer)
            for lang in ("it", "es"):
                for en, other in zip(english, state.log(viewer, lang=lang)):
                    assert other["msg"] == en["msg"]
                    assert (other["text"], other["parts"]) == render_parts(en["msg"], lang, state.num_players)
            for e in english:
                used |= set(_walk(e["msg"])[0])
    for state, viewer, message in _synthetic():
        used |= _check(state, viewer, message)
    # the event log's ids: not the web table's (amarok.web.*), the terminal's (amarok.term.*,
    # amarok.action.*: tests/amarok/test_amarok_render_languages.py, tests/js/amarok_i18n.test.mjs)
    # nor the lobby's (the summary, amarok.option.*, the options refused: amarok.error.*,
    # tests/test_option_messages.py)
    others = ("amarok.web.", "amarok.term.", "amarok.action.", "amarok.option.", "amarok.summary", "amarok.error.")
    ours = {i for i in catalogue("en") if i.startswith("amarok.") and not i.startswith(others)}
    assert ours - used == set()
    assert used <= ours


def test_every_event_kind_has_messages(played):
    kinds = {e["kind"] for _s, _v, e in played}
    from nemeton.games.amarok.events import EVENT_KINDS
    assert kinds == set(EVENT_KINDS)
    assert all(e["msg"]["id"].startswith("amarok.event.") for _s, _v, e in played)


# ----- exact sentences ------------------------------------------------------------------------
def _say(state, entry, viewer, lang):
    return render(state.event_message(entry, viewer), lang, seat=lambda n: NAMES[n])


def test_italian_and_spanish_sentences():
    three = make("amarok", players=3, seed=0)
    take = {"i": 3, "round": 1, "seat": 0, "kind": "take", "source": "river", "card": "R6"}
    assert _say(three, take, 0, "it") == "Prendi R6 (6 rosso, Cuore) dal Fiume e la giochi."
    assert _say(three, take, 0, "es") == "Tomas R6 (6 rojo, Corazón) del río y la juegas."
    assert _say(three, take, 1, "it") == "Ann prende R6 (6 rosso, Cuore) dal Fiume e la gioca."

    season = {"i": 5, "round": 1, "seat": None, "kind": "season", "player": 1, "objective": "lone_wolf"}
    assert _say(three, season, 1, "it") == ("Il tuo Cambio di stagione gira la Carta Obiettivo: ora mostra "
                                            "il Lupo Solitario (vince il totale più basso).")
    assert _say(three, season, 0, "es") == ("El Cambio de estación de Bob da la vuelta a la Carta de Objetivo: "
                                            "ahora muestra el Lobo Solitario (gana el total más bajo).")

    hidden = {"i": 2, "round": 2, "seat": None, "kind": "hand_dealt", "player": 2, "facing": "others", "slots": [1]}
    assert _say(three, hidden, 2, "it") == ("Ricevi una carta in posizione 1 con il fronte rivolto verso gli "
                                            "altri giocatori: non puoi vederla.")
    assert _say(three, {**hidden, "cards": ["B10"]}, 0, "es") == (
        "Cleo recibe B10 (10 azul, Garra) en la posición 1, de cara a los demás jugadores (Cleo no puede verla).")

    claw = {"i": 7, "round": 1, "seat": 1, "kind": "claw", "target": "front", "player": 0, "card": "R3"}
    assert _say(three, claw, 0, "it") == ("L'Artiglio di Bob prende R3 (3 rosso) da davanti a te, la mostra a "
                                          "tutti e la mette in fondo al Mazzo; giocherai di nuovo.")

    mating = {"i": 9, "round": 2, "seat": None, "kind": "round_end", "reason": "mating", "player": 2,
              "winners": [2], "levels": [0, 1, 1], "objective": "wolf_pack",
              "fronts": [["R1", "R2"], ["B2", "B4"], ["R0", "B8"]], "totals": [3, 6, 8], "trapped": []}
    assert _say(three, mating, 2, "it") == ("Metti davanti a te un secondo Cuore: l'Accoppiamento chiude subito "
                                            "il round 2; lo vinci e ora hai 1 round vinto.")
    tie = {"i": 9, "round": 5, "seat": None, "kind": "game_end", "winners": [0, 2], "levels": [3, 1, 3]}
    assert _say(three, tie, 2, "es") == "Fin de la partida: Ann y tú os repartís la victoria con 3 rondas ganadas cada uno."


def test_team_sentences():
    four = make("amarok", players=4, teams=True, seed=0)
    trap = {"i": 11, "round": 1, "seat": 2, "kind": "take", "source": "deck", "card": "B1"}
    assert _say(four, trap, None, "it") == (
        "Cleo prende B1 (1 blu, Trappola per Lupi) dalla cima del Mazzo e la gioca; con una Trappola per Lupi "
        "davanti a Cleo, la squadra di Ann e Cleo non può vincere questo round.")
    end = {"i": 13, "round": 1, "seat": None, "kind": "round_end", "winners": [1, 3], "levels": [0, 1, 0, 1],
           "reason": "totals", "objective": "wolf_pack", "fronts": [["B9", "R6"], ["R3", "R10"], ["R0", "B1"], ["B8", "B0"]],
           "totals": [15, 13, 1, 8], "trapped": [2], "team_totals": [16, 21]}
    assert _say(four, end, 0, "es") == (
        "La ronda 1 termina con la Manada de Lobos (gana el total más alto): totales por equipo 16 para tu equipo "
        "(tú y Cleo) (con trampa), 21 para Bob y Dara; el equipo de Bob y Dara gana la ronda y ahora tiene 1 victoria.")
    assert _say(four, end, 3, "it").startswith(
        "Il round 1 termina con il Branco di Lupi (vince il totale più alto): totali delle squadre 16 per Ann e Cleo "
        "(in trappola), 21 per la tua squadra (tu e Bob); la tua squadra (tu e Bob) vince il round")


def test_colours_standard_translated_custom_as_written():
    state = make("amarok", players=3, seed=0, deck=CUSTOM)
    take = {"i": 3, "round": 1, "seat": 0, "kind": "take", "source": "river", "card": "G5"}
    assert _say(state, take, 1, "it") == "Ann prende G5 (5 green) dal Fiume e la gioca."
    take = {**take, "card": "R-2"}
    assert _say(state, take, 1, "es").startswith("Ann toma R-2 (-2 rojo, ")
    take = {**take, "card": "X-2"}
    assert _say(state, take, 1, "en") == "Ann takes X-2 (-2) from the river and plays it."
    assert _say(state, take, 1, "es") == "Ann toma X-2 (-2) del río y la juega."
