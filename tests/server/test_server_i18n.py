"""The English the server sends to a lobby or a room comes with its messages (issue 30): each
game's summary and each option's name, help and allowed values (the game's catalogue), the
agents offered and the names the server makes up for seats (the shared catalogue), so a
client shows them in its reader's language; the English fields stay for bots."""

from __future__ import annotations

import re

from conftest import create, view

from nemeton.engine import list_games
from nemeton.i18n import LANGUAGES, catalogue, render
from nemeton.server.agents import DEFAULT_AGENTS, AgentPolicy
from nemeton.server.db import SeatRow
from nemeton.server.seats import hash_token, seat_name, seat_name_msg


def messages_in(value):
    """Every message ({id, ...}) anywhere in a JSON value, nested ones too."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str) and set(value) <= {"id", "args"}:
            yield value
        for v in value.values():
            yield from messages_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from messages_in(v)


def check_rendered(message):
    """``message`` exists in every language, translated (no fallback to English for it/es
    where the text is a word), with nothing left unfilled."""
    for lang in LANGUAGES:
        assert message["id"] in catalogue(lang), (lang, message)
        text = render(message, lang)
        assert text and not re.search(r"\{[A-Za-z_]+\}", text), (lang, message, text)


def test_the_catalogue_carries_a_message_beside_each_english_text(client):
    games = client.get("/api/games").json()
    assert {g["name"] for g in games} == {s.name for s in list_games()}
    for g in games:
        assert g["summary_msg"] == {"id": f"{g['name']}.summary"}
        assert render(g["summary_msg"], "en") == g["summary"]  # the English is the same text
        for o in g["options"]:
            base = f"{g['name']}.option.{o['name']}"
            assert o["help_msg"] == {"id": base} and render(o["help_msg"], "en") == o["help"]
            assert o["label_msg"] == {"id": f"{base}.label"}
            assert render(o["label_msg"], "en") == o["name"].replace("_", " ")
            if o["kind"] == "bool":
                assert "allowed_msg" not in o
            else:
                assert render(o["allowed_msg"], "en") == o["allowed"]
            if o["kind"] == "choice":
                assert set(o["choices_msg"]) == set(o["choices"])
                assert [render(o["choices_msg"][c], "en") for c in o["choices"]] == o["choices"]
        for a in g["agents"]:
            assert a["label_msg"]["id"].startswith("nemeton.agent.") and render(a["label_msg"], "en") == a["label"]
            assert render(a["help_msg"], "en") == a["help"]
        found = list(messages_in(g))
        assert len(found) >= 2 + len(g["agents"])
        for message in found:
            check_rendered(message)


def test_the_games_summaries_and_options_read_in_italian_and_spanish(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    amarok = games["amarok"]
    assert render(amarok["summary_msg"], "it").startswith("Gioca due carte davanti a te")
    assert render(amarok["summary_msg"], "es").startswith("Juega dos cartas delante de ti")
    edora = {o["name"]: o for o in games["edora"]["options"]}
    assert render(edora["fire_pit_scoring"]["choices_msg"]["summary"], "es") == "resumen"
    assert render(edora["tablet_draft"]["label_msg"], "it") == "scelta delle tavolette"
    agents = {a["name"]: a for a in amarok["agents"]}
    assert render(agents["heuristic"]["label_msg"], "it") == "Euristica"
    assert render(agents["search-1s"]["help_msg"], "es") == "MCTS de conjuntos de información, un segundo por jugada más o menos"


def test_every_default_agent_and_a_configured_one_have_messages():
    for a in DEFAULT_AGENTS:
        entry = a.entry()
        check_rendered(entry["label_msg"])
        check_rendered(entry["help_msg"])
        assert render(entry["label_msg"], "en") == a.label and render(entry["help_msg"], "en") == a.help
    configured = AgentPolicy({"strong": "ismcts:iterations=500"}).entries()[0]
    assert "label_msg" not in configured  # the operator's own name, shown as written
    assert render(configured["help_msg"], "en") == configured["help"] == "ismcts:iterations=500 (configured by this server)"
    assert render(configured["help_msg"], "it") == "ismcts:iterations=500 (configurato da questo server)"


def test_the_names_the_server_makes_up_for_seats_are_messages():
    cases = [
        (SeatRow(1, "ai", None, "random", None), "Birch (AI)", {"id": "nemeton.seat_name.ai", "args": {"name": "Birch"}},
         "Birch (IA)"),
        (SeatRow(2, "human", None, None, None), "Open seat", {"id": "nemeton.seat_name.open"}, "Posto libero"),
        (SeatRow(2, "human", None, None, hash_token("t")), "Player 3",
         {"id": "nemeton.seat_name.player", "args": {"n": 3}}, "Giocatore 3"),
        (SeatRow(2, "human", "Player 3", None, hash_token("t")), "Player 3",
         {"id": "nemeton.seat_name.player", "args": {"n": 3}}, "Giocatore 3"),
    ]
    for row, english, message, italian in cases:
        assert seat_name(row) == english and seat_name_msg(row) == message
        assert render(message, "en") == english and render(message, "it") == italian
        check_rendered(message)
    # a name somebody gave is shown as written, in every language
    assert seat_name_msg(SeatRow(0, "human", "Ada", None, hash_token("t"))) is None
    assert seat_name_msg(SeatRow(0, "ai", "Deep Thought", "random", None)) is None
    assert seat_name_msg(SeatRow(0, "human", "Player 3", None, hash_token("t"))) is None  # not seat 0's default


def test_the_snapshot_and_the_lobby_give_the_made_up_names_as_messages(client):
    body = {"game": "amarok", "options": {}, "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human"},
                                                         {"kind": "ai", "agent": "random"}, {"kind": "open"}]}
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    room = r.json()["room"]
    token = r.json()["seats"][0]["token"]
    expected = [("Ada", None), ("Player 2", {"id": "nemeton.seat_name.player", "args": {"n": 2}}),
                ("Cedar (AI)", {"id": "nemeton.seat_name.ai", "args": {"name": "Cedar"}}),
                ("Open seat", {"id": "nemeton.seat_name.open"})]
    snap = view(client, room, token)
    listed = next(r for r in client.get("/api/rooms").json() if r["room"] == room)
    for seats in (snap["seats"], listed["seats"]):
        assert [(s["name"], s.get("name_msg")) for s in seats] == expected
        for s in seats:
            if s.get("name_msg"):
                assert render(s["name_msg"], "en") == s["name"]
                check_rendered(s["name_msg"])


def test_a_room_of_named_people_sends_no_name_messages(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    assert all(s.get("name_msg") is None for s in view(client, room, tokens[0])["seats"])


def test_a_room_refused_for_its_options_says_why_as_a_message_with_the_options_labels(client):
    """What the lobby's form shows when the options do not go together or a number is out of
    range: the English detail as before, and a message naming the options by their labels."""
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(5)]
    r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 5, "teams": True}, "seats": seats})
    assert r.status_code == 400
    body = r.json()
    assert body["detail"].startswith("teams=true needs 4 or 6 players")
    assert render(body["msg"], "it").startswith("Le squadre richiedono 4 o 6 giocatori")
    r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 4, "rounds_to_win": 99}, "seats": seats[:4]})
    assert r.status_code == 400
    assert render(r.json()["msg"], "es") == "La opción «rondas para ganar» no admite 99; valores permitidos: de 1 a 9."
    r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 4}, "seats": seats[:3]})
    assert r.status_code == 400
    assert render(r.json()["msg"], "it") == "Una partita a 4 giocatori richiede 4 posti, non 3."
    assert client.get("/api/rooms").json() == []  # nothing made
