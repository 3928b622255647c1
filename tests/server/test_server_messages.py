"""The server in three languages (issue 30): refusals a player meets carry a message (id and
arguments) that each client renders in its reader's language, next to the English detail; the
rules summary in the language asked for (query or Accept-Language)."""

from __future__ import annotations

from conftest import create, view

from nemeton.i18n import render


def test_a_refusal_carries_its_message_with_seats_as_arguments(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    snaps = [view(client, room, tokens[s]) for s in (0, 1)]
    actor = next(s for s in (0, 1) if snaps[s]["legal_actions"])
    other, action = 1 - actor, snaps[actor]["legal_actions"][0]
    acting = [actor]
    assert not snaps[other]["legal_actions"]
    r = client.post(f"/api/rooms/{room}/actions", json={"token": tokens[other], "action": action})
    assert r.status_code == 409
    body = r.json()
    assert "not your turn" in body["detail"]  # the English detail, as before, for bots
    assert body["msg"] == {"id": "nemeton.error.not_your_turn", "args": {"seats": {"list": [{"seat": s} for s in acting]}}}
    names = {0: "P0", 1: "P1"}
    assert render(body["msg"], "it", seat=names.get) == f"Non è il tuo turno: si aspetta {names[acting[0]]}."
    assert render(body["msg"], "es", seat=names.get) == f"No es tu turno: se espera a {names[acting[0]]}."


def test_a_bad_name_and_an_unknown_token_are_messages_too(client):
    room, tokens = create(client, "alarun", ("human", "human"))
    r = client.get(f"/api/rooms/{room}/view", params={"token": "x" * 40})
    assert r.status_code == 403 and r.json()["msg"] == {"id": "nemeton.error.unknown_token"}
    assert render(r.json()["msg"], "es") == "Este enlace no es válido para esta mesa."
    r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human", "name": "a" * 99}, {"kind": "human"}]})
    assert r.status_code == 422 and r.json()["msg"]["id"] == "nemeton.error.name_long"
    assert render(r.json()["msg"], "it") == "Il nome può avere al massimo 24 caratteri."


def test_the_rules_summary_is_served_in_the_language_asked_for(client):
    r = client.get("/api/games/amarok/rules", params={"lang": "it"})
    assert r.status_code == 200 and r.json()["lang"] == "it" and "Carta Obiettivo" in r.json()["html"]
    r = client.get("/api/games/edora/rules", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert r.json()["lang"] == "es" and "santuario" in r.json()["html"].lower()
    r = client.get("/api/games/alarun/rules", params={"lang": "fr"}, headers={"Accept-Language": "fr"})
    assert r.json()["lang"] == "en"
    assert "<script" not in r.json()["html"]
    r = client.get("/api/games/chess/rules")
    assert r.status_code == 404
