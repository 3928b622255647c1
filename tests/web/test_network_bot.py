"""A bot over the network at a table with a person in a browser and a server AI: the person
creates the room in the lobby with an invite link for the bot's seat, ``nemeton bot`` (a
child process) joins through that link as the page shows it, and the game is played to the
end, the person clicking as a person does."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import pytest

from conftest import close_pages, new_page, play_by_clicks, snapshot
from test_online import create_in_lobby


@pytest.mark.parametrize("game, title", [("alarun", "Alarún"), ("amarok", "Amarok")])
def test_a_person_a_network_bot_and_a_server_ai_play_a_game_to_the_end(server, browser, game, title):
    ann = new_page(browser, 1366, 768)
    bot = None
    try:
        room = create_in_lobby(ann, server, title, 3, [("here", "Ann"), ("invite", "Bot"), ("ai", "random")])
        link = ann.locator("#creator input.invite[data-seat]").first.input_value()
        assert f"/rooms/{room}" in link and "token=" in link
        bot = subprocess.Popen([sys.executable, "-c", "from nemeton.cli import main; main()", "bot", link,
                                "--agent", "heuristic", "--seed", "2", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not httpx.get(f"{server.base}/api/rooms/{room}", timeout=10).json()["seats"][1]["connected"]:
            assert bot.poll() is None and time.monotonic() < deadline, bot.stderr.read() if bot.poll() else "slow"
            time.sleep(0.1)  # the bot takes its seat
        clicks = play_by_clicks(ann, seed=7, timeout=240)
        assert clicks > 0 and snapshot(ann)["terminal"]
        out, err = bot.communicate(timeout=60)
        assert bot.returncode == 0, err
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.wait()
        close_pages(ann)
    outcome = json.loads(out)
    row = server.store.load_room(room)
    assert row.game == game and row.status == "finished"
    actions = row.actions
    by_seat = [sum(1 for seat, _ in actions if seat == s) for s in range(3)]
    assert outcome["seat"] == 1 and outcome["moves"] == len(actions)
    assert outcome["decisions"] == by_seat[1] and all(n > 0 for n in by_seat), by_seat
