"""The event log as messages (issue 30): every kind and variant of event, for every viewer,
renders in English, Italian and Spanish from the catalogues (locale/<lang>/LC_MESSAGES/edora.po):
no missing id, no placeholder left, no English fallback in Italian or Spanish, seats as parts.
English equals the sentences the log always wrote (the golden playthroughs check that too)."""

import random
import re

import pytest

from nemeton.engine import make
from nemeton.games.edora import events as ev
from nemeton.games.edora.components import HERBS, POTIONS, REWARD_GAINS, RUNE_NAMES
from nemeton.games.edora.events import EVENT_KINDS, event_message
from nemeton.i18n import catalogue, render, render_parts

CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "tablet_draft": True, "arranged_herbs": True, "shared_dice": True},
    {"players": 2, "revisit_sanctuaries": True, "fire_pit_scoring": "summary", "shared_herbs": True},
    {"players": 4, "fire_pit_scoring": "summary", "tablet_draft": True},
    {"players": 2, "arranged_herbs": True, "tablet_draft": True, "revisit_sanctuaries": True},
]
SEEDS = (0, 1, 2, 3)
LANGS = ("en", "it", "es")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")

B = {"i": 0, "round": 3, "seat": None}
# Variants random games rarely or never reach, and the English prose older saves hold.
SYNTHETIC = [
    dict(B, kind="draft_draw", player=1, tablets=["T1", "T5", "T9"]),
    dict(B, kind="draft_draw", player=1, count=3),
    dict(B, kind="competition", player=1, sanctuary="S05", value=5),
    dict(B, kind="keep_tablet", seat=1, tablet="T2", under=1),
    dict(B, kind="move", seat=1, from_sanctuary="S01", sanctuary="S02", cost=1),
    dict(B, kind="take_gem", seat=1, gem="KNOW", row="SUN", times=1, prestige=0),
    dict(B, kind="take_gem", seat=1, gem="VP", row="ORB", times=2, prestige=8),
    dict(B, kind="place_die", seat=1, die=3, value=3, sanctuary="S03", space=2, space_action="AM-ORB-x1", cost=3),
    dict(B, kind="place_die", seat=1, die=1, value=1, sanctuary="S03", space=2, space_action="KN1", cost=1),
    dict(B, kind="herbs_released", player=1, pair=4, herbs=[]),
    dict(B, kind="herbs_released", player=1, pair=4, herbs=["H_VP", "H_LEAP"]),
    dict(B, kind="herbs_released", player=1, pair=4, herbs=["H_VP"], active="H_VP"),
    dict(B, kind="round_end", game_over=False, reason=None),
    dict(B, kind="round_end", game_over=True, reason=None),
    dict(B, kind="round_end", game_over=True, reason="a player has placed their 13th die"),
    dict(B, kind="round_end", game_over=True, reason="safety valve: round 40 reached"),
    dict(B, kind="round_end", game_over=True, reason="safety valve: 3 rounds without any die placed"),
    dict(B, kind="game_won", winners=[1], total=101),
    dict(B, kind="game_won", winners=[0, 1], total=101),
    dict(B, kind="game_won", winners=[0, 1, 2], total=1),
    dict(B, kind="tie_break", players=[0, 1, 2], total=90),
    dict(B, kind="tie_break", players=[1, 2], total=90),
    dict(B, kind="score_amulet", player=1, points=10, full_rows=1, left_column=False),
    dict(B, kind="score_amulet", player=1, points=40, full_rows=2, left_column=True),
    dict(B, kind="score_leftovers", player=1, points=1, provisions=6, mistletoe=1, dice=1),
    dict(B, kind="score_tablets", player=1, points=0, met=[], unmet=[]),
    dict(B, kind="score_tablets", player=1, points=0, met=[], unmet=["T3"]),
    dict(B, kind="score_tablets", player=1, points=10, met=["T1"], unmet=[]),
    dict(B, kind="score_tablets", player=1, points=10, met=["T1"], unmet=["T3", "T4"]),
    dict(B, kind="overview_dice", player=1, values=[3], missing=1, prestige=2),
    dict(B, kind="overview_dice", player=1, values=[], missing=2, prestige=4),
    dict(B, kind="overview_dice", player=1, values=[2, 5], missing=0, prestige=0),
    dict(B, kind="fire_pit", player=1, pit="F01", rewards=["VP", "KNOW"], prestige=3),
    dict(B, kind="fire_pit", player=1, pit="F01", rewards=["VP", "KNOW"], prestige=8),
    dict(B, kind="fire_pit", player=1, pit="F01", rewards=["VP", "KNOW"], prestige=7, enclosing_bonus=4, order_bonus=0),
    dict(B, kind="fire_pit", player=1, pit="F01", rewards=["VP"], prestige=20, enclosing_bonus=4, order_bonus=8),
    dict(B, kind="dolmen_link", player=1, colour="C", sanctuaries=["S01", "S09"], length=3, beige_bonus=0, prestige=6),
    dict(B, kind="dolmen_link", player=1, colour="C", sanctuaries=["S01", "S09"], length=3, beige_bonus=8, prestige=14),
    dict(B, kind="rune_stone", seat=1, stone="PRESTIGE_POINT", value=3, amount=1, prestige=1),
    dict(B, kind="rune_stone", seat=1, stone="KNOW", value=3, amount=1, prestige=4),
    dict(B, kind="brew", seat=1, potion="P3a", cost=3, prestige=12),
    dict(B, kind="brew", seat=1, potion="P4b", cost=4, prestige=5),
    dict(B, kind="setup", start_player=1, reserve_sums=[14, 14], tie=True),
    dict(B, kind="setup", start_player=1, reserve_sums=[12, 14], tie=False),
    dict(B, kind="emergency", seat=1, forced=True),
    dict(B, kind="emergency", seat=1, forced=False),
    dict(B, kind="stop", seat=1, what="dice to raise"),
    dict(B, kind="stop", seat=1, what="potions"),
    dict(B, kind="skip", seat=1, what="rune-stone"),
    dict(B, kind="skip", seat=1, what="standing-stone"),
    dict(B, kind="knowledge", player=1, steps=1, position=14, prestige=2),
    dict(B, kind="sickle", player=1, steps=3, position=9),
    dict(B, kind="sickle", player=1, steps=3, position=12, prestige=4),
    dict(B, kind="final_score", player=1, total=12.0, prestige_track=7.0),
] + [dict(B, kind="no_effect", player=1, what=what, reason=reason) for what, reason in [
    ("tablet action", "no tablet is left at the oracle site"),
    ("amulet action", "every row is full"),
    ("amulet action", "the MOON row is full"),
    ("amulet action", "the ORB row is full"),
    ("amulet action", "no new type of gem is left"),
    ("standing-stone action", "every standing stone is already placed"),
    ("rune-stone action", "every rune stone is already placed"),
    ("potion P6a", "no placed die of that player shows less than 6"),
    ("potion P1c", "no placed die of that player shows less than 6"),
    ("potion P1b", "no herb of that player is face down"),
    ("potion P2a", "no herb is left on the sickle track"),
    ("potion P4c", "no herb is left on the sickle track"),
]]


def _random_game(cfg, seed):
    st = make("edora", seed=seed, safety_valve=True, **cfg)
    rng = random.Random(seed)
    while not st.is_terminal():
        seat = rng.choice(st.acting())
        st.apply(rng.choice(st.legal_actions(seat)), seat)
    return st


def _told():
    """(players, viewer, entry) for every entry of the seeded games, every viewer (spectator
    included), and the hand-made entries for seats 0-2."""
    out = []
    for cfg in CONFIGS:
        for seed in SEEDS:
            st = _random_game(cfg, seed)
            for viewer in [None, *range(cfg["players"])]:
                for entry in st.log(viewer):
                    bare = {k: v for k, v in entry.items() if k not in ("text", "parts", "msg")}
                    out.append((cfg["players"], viewer, bare))
    for entry in SYNTHETIC:
        for viewer in (None, 0, 1, 2):
            out.append((3, viewer, entry))
    return out


@pytest.fixture(scope="module")
def told():
    return _told()


def _ids(message):
    """Every message id in ``message``, nested ones included."""
    yield message["id"]
    for value in (message.get("args") or {}).values():
        yield from _arg_ids(value)


def _arg_ids(value):
    if isinstance(value, dict) and "msg" in value:
        yield from _ids(value["msg"])
    elif isinstance(value, dict) and "list" in value:
        for item in value["list"]:
            yield from _arg_ids(item)


def _seats(message):
    """Every seat argument in ``message``."""
    for value in (message.get("args") or {}).values():
        yield from _arg_seats(value)


def _arg_seats(value):
    if isinstance(value, dict) and "seat" in value:
        yield value["seat"]
    elif isinstance(value, dict) and "msg" in value:
        yield from _seats(value["msg"])
    elif isinstance(value, dict) and "list" in value:
        for item in value["list"]:
            yield from _arg_seats(item)


def test_every_entry_for_every_viewer_renders_in_every_language(told):
    kinds = set()
    for players, viewer, entry in told:
        message = event_message(entry, viewer)
        assert message is not None, (entry, viewer)
        kinds.add(entry["kind"])
        ids = set(_ids(message))
        for lang in LANGS:
            have = catalogue(lang)
            missing = [i for i in ids if i not in have]
            assert not missing, (lang, missing, entry)  # in it/es: no English fallback
            text, parts = render_parts(message, lang, players)
            assert not PLACEHOLDER.search(text), (lang, text)
            assert "\ue000" not in text and "\ue001" not in text
            seats = sorted(set(_seats(message)))
            assert sorted({p["seat"] for p in parts if isinstance(p, dict)}) == seats, (lang, parts)
            assert all("\ue000" not in p for p in parts if isinstance(p, str))
            if viewer is not None and viewer in seats:
                pytest.fail(f"the viewer is named as a seat, not as 'you': {entry} {viewer}")
    assert kinds == set(EVENT_KINDS)


def test_italian_and_spanish_are_translations_not_english(told):
    """A sentence in Italian or Spanish never equals the English one (an untranslated id would)."""
    for players, viewer, entry in told[::7]:
        message = event_message(entry, viewer)
        english = render(message, "en")
        assert render(message, "it") != english, english
        assert render(message, "es") != english, english


def test_every_event_id_of_the_catalogue_is_used(told):
    used = set()
    for _players, viewer, entry in told:
        used.update(_ids(event_message(entry, viewer)))
    events = {i for i in catalogue("en") if i.startswith("edora.event.")}
    assert events - used == set()
    assert used - set(catalogue("en")) == set()


def test_every_component_has_its_message_in_every_language():
    messages = ([ev._herb(h) for h in HERBS] + [ev._potion(p) for p in POTIONS]
                + [f(c) for c in REWARD_GAINS for f in (ev._gain, ev._bonus, ev._gem)]
                + [f(c) for c in RUNE_NAMES for f in (ev._rune, lambda c: ev._rune_amount(c, 2))]
                + [ev._space(c) for c in ("FD", "TB", "SS", "RS", "KN3", "SI2", "MI2P1", "MI3P2", "AM-STAR-x3")])
    for lang in LANGS:
        have = catalogue(lang)
        for m in messages:
            assert m["id"] in have, (lang, m)
            assert not PLACEHOLDER.search(render(m, lang))
    # every id of the domain is named somewhere: the events and the tables
    used = {m["id"] for m in messages}
    assert {i for i in catalogue("en") if i.startswith(("edora.herb.H", "edora.potion.", "edora.gain.",
                                                         "edora.gem.", "edora.rune", "edora.space."))} <= used


def test_the_log_speaks_the_readers_language():
    st = make("edora", players=2, seed=5, safety_valve=True)
    mine, theirs = st.log(1, lang="es")[0], st.log(0, lang="it")[0]
    best = mine["msg"]["args"]["best"]
    assert mine["kind"] == "setup" and mine["msg"]["id"] == "edora.event.setup.you"
    assert mine["text"] == f"Eres el Druida Maestro (jugador inicial): la suma más alta de dados de la reserva ({best})."
    assert theirs["parts"][0] == {"seat": 1}
    assert theirs["parts"][1] == f" è il primo giocatore: la somma più alta dei dadi della riserva ({best})."


# ----- a few sentences as a player reads them --------------------------------------------------
def _say(entry, viewer, lang, players=3):
    return render_parts(event_message(dict(B, **entry), viewer), lang, players)[0]


def test_spanish_sentences():
    assert _say({"kind": "emergency", "seat": 1, "forced": True}, 1, "es") == (
        "Haces el movimiento de emergencia «Druida en apuros» (no era posible un turno normal): "
        "+6 provisiones y un dado del tablero de visión general.")
    assert _say({"kind": "dolmen_link", "player": 2, "colour": "C", "sanctuaries": ["S01", "S09"], "length": 3,
                 "beige_bonus": 8, "prestige": 14}, 0, "es") == (
        "Jugador 2 vincula los dos dólmenes de color C (S01 y S09) a lo largo de 3 santuarios y toma un "
        "dolmen beige: 2 x 3 + 8 = 14 puntos de prestigio.")
    assert _say({"kind": "take_herb", "seat": 0, "herb": "H_STAND"}, 0, "es") == (
        "Tomas la hierba de las piedras erectas de la barra de la hoz, boca arriba.")
    assert _say({"kind": "brew", "seat": 1, "potion": "P2c", "cost": 2}, 0, "es") == (
        "Jugador 1 prepara la poción P2c por 2 muérdagos: hoz +3.")
    assert _say({"kind": "no_effect", "player": 0, "what": "potion P1b",
                 "reason": "no herb of that player is face down"}, 0, "es") == (
        "Tu poción P1b no tiene efecto: ninguna hierba de ese jugador está boca abajo.")
    assert _say({"kind": "game_won", "winners": [0, 2], "total": 88}, 2, "es") == (
        "Jugador 0 y tú compartís la victoria con 88 puntos.")


def test_italian_sentences():
    assert _say({"kind": "fire_pit", "player": 1, "pit": "F02", "rewards": ["VP", "MIST"], "prestige": 7,
                 "enclosing_bonus": 4}, 1, "it") == (
        "Circondi il pozzo del fuoco F02 e ottieni 3 punti prestigio e un vischio, più punti prestigio: "
        "4 per i dadi che lo circondano.")
    assert _say({"kind": "move", "seat": 2, "from_sanctuary": "S01", "sanctuary": "S04", "cost": 1}, 0, "it") == (
        "Giocatore 2 si sposta da S01 a S04 per 1 provvista.")
    assert _say({"kind": "round_end", "game_over": True, "reason": "a player has placed their 13th die"},
                None, "it") == "Il round 3 finisce, e con lui la partita (un giocatore ha piazzato il suo 13° dado)."
    assert _say({"kind": "tie_break", "players": [1, 0], "total": 90}, 0, "it") == (
        "Giocatore 1 e tu pareggiate a 90 punti: vince chi è più indietro sul tracciato della conoscenza "
        "(sullo stesso spazio, il segnalino più in basso nella torre).")
    assert _say({"kind": "take_gem", "seat": 0, "gem": "SICKLE", "row": "MOON", "times": 3, "prestige": 0}, 0,
                "it") == "Metti la gemma del falcetto sulla riga LUNA del tuo amuleto e ottieni un passo di falcetto 3 volte."


def test_english_is_the_log_as_it_always_read():
    assert _say({"kind": "rune_stone", "seat": 1, "stone": "DIE", "value": 5, "amount": 2}, None, "en") == (
        "Seat 1 places the die rune stone with the die counting 5: 2 dice.")
    assert _say({"kind": "brew", "seat": 0, "potion": "P3a", "cost": 3, "prestige": 10}, 0, "en") == (
        "You brew potion P3a for 3 mistletoe: +10 prestige.")
    assert _say({"kind": "tie_break", "players": [0, 1], "total": 90}, 0, "en").startswith("You and seat 1 tie on 90")


# ----- English prose older saves hold ---------------------------------------------------------
def test_recorded_english_prose_is_read_as_message_ids():
    m = event_message(dict(B, kind="no_effect", player=1, what="amulet action", reason="the SUN row is full"), None)
    assert m["id"] == "edora.event.no_effect.amulet"
    assert m["args"]["reason"] == {"msg": {"id": "edora.no_effect.row_full",
                                           "args": {"row": {"msg": {"id": "edora.row.SUN"}}}}}
    m = event_message(dict(B, kind="round_end", game_over=True, reason="safety valve: round 40 reached"), None)
    assert m["args"]["reason"] == {"msg": {"id": "edora.end_reason.round_40"}}


def test_an_entry_that_does_not_fit_its_kind_is_told_plainly():
    st = make("edora", players=2, seed=0)
    odd = dict(B, kind="no_effect", player=1, what="dance", reason="no music")
    assert event_message(odd, None) is None
    assert st.event_text(odd, None).startswith("No effect (")
    assert event_message(dict(B, kind="move", seat=1), None) is None
