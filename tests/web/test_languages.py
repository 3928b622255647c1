"""The web client in three languages (docs/web.md, "Languages"): a browser whose language is
Italian or Spanish sees the shell in it (no English left), the switcher changes the language
and the choice outlives a reload, and two people in one room each read the room and its log in
their own language (each browser renders the entries' messages itself)."""

from __future__ import annotations

import re

import pytest
from conftest import close_pages, create_room, new_page

from nemeton.i18n import catalogue, render

# English the lobby's shell shows (its fixed text and what lobby.js draws): none of it may be
# left on an Italian or Spanish lobby. The games' own summaries, option help and agents come
# from the server's catalogue as messages: test_the_lobby_shows_the_games_summaries_... below.
LOBBY_ENGLISH = ["New game", "Create the game", "Rule options", "Room settings", "Seats", "Players",
                 "Played here", "A friend (invite link)", "Anyone (open seat", "List this room", "Allow hints",
                 "Allow take-backs", "Turn time limit", "Games", "Yours", "In progress", "Finished",
                 "on by default", "off by default", "No game is waiting", " players"]
LOBBY_SHELL = "header, #new-title, #new-game > label, #seats, #options-box > summary, #new-game > details > summary, " \
              "#new-game details > label, #new-game details > p, #create, #rooms-title, .rooms-filter, #rooms"
ROOM_ENGLISH = ["Players", "Log", "Table", "Connected", "Moves", "Waiting for", "Your turn", "Setup",
                "away", "to act", "AI ·", "Your room", "Copy link", "Spectators"]
WORDS = {
    "it": {"new_game": "Nuova partita", "create": "Crea la partita", "players": "Giocatori", "log": "Registro",
           "connected": "Connesso", "language": "Lingua"},
    "es": {"new_game": "Nueva partida", "create": "Crear la partida", "players": "Jugadores", "log": "Registro",
           "connected": "Conectado", "language": "Idioma"},
}
# a room made a moment ago: "now" (or a minute or two ago on a slow machine) in the language
RECENT = {"it": ["ora", "1 minuto fa", "2 minuti fa"], "es": ["ahora", "hace 1 minuto", "hace 2 minutos"]}
SYMBOLS = ["●", "■", "▲", "◆", "★", "✚"]


def context_page(browser, locale):
    return new_page(browser, locale=locale)


def open_lobby(page, server, lang):
    page.goto(server.base + "/")
    page.wait_for_function(f"document.documentElement.lang === '{lang}' && "
                           "document.querySelectorAll('#game-choice input').length > 0 && "
                           "document.getElementById('rooms').dataset.filter")


def shell_text(page, selector):
    return page.eval_on_selector_all(selector, "es => es.map((e) => e.innerText).join('\\n')")


def english_left(text, words):
    return [w for w in words if re.search(r"(?<![A-Za-zÀ-ÿ])" + re.escape(w), text)]


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_a_browser_in_italian_or_spanish_shows_the_lobby_in_its_language(server, browser, locale, lang):
    page = context_page(browser, locale)
    try:
        open_lobby(page, server, lang)
        text = shell_text(page, LOBBY_SHELL)
        assert WORDS[lang]["new_game"] in text and WORDS[lang]["create"] in text
        assert english_left(text, LOBBY_ENGLISH) == [], text
        # attributes too: the switcher's label, the filters' group, a seat's fields
        assert page.get_attribute("#language", "aria-label") == WORDS[lang]["language"]
        assert page.input_value("#language") == lang
        labels = page.eval_on_selector_all("#seat-list [aria-label]", "es => es.map((e) => e.getAttribute('aria-label'))")
        assert labels and not any(label.startswith("Player") for label in labels), labels
        assert page.title() == catalogue(lang)["nemeton.web.lobby.page_title"]
        # a room's age in the list: in words of the language, the date and time in its title
        create_room(server, "amarok", ["human", "random", "random"])
        page.click(".rooms-filter button[data-filter='playing']")
        page.wait_for_selector("#rooms[data-filter='playing'] .room time.room-created")
        when = page.text_content("#rooms .room time.room-created")
        assert when in RECENT[lang], when
        assert re.search(r"\d{4}", page.get_attribute("#rooms .room time.room-created", "title"))
    finally:
        close_pages(page)


def test_the_switcher_changes_the_language_and_the_choice_outlives_a_reload(server, browser):
    page = context_page(browser, "en-US")
    try:
        open_lobby(page, server, "en")
        assert page.text_content("#new-title") == "New game"
        options = page.eval_on_selector_all("#language option", "os => os.map((o) => [o.value, o.textContent])")
        assert options == [["en", "English"], ["it", "Italiano"], ["es", "Español"]]
        with page.expect_navigation():
            page.select_option("#language", "es")
        open_lobby(page, server, "es")
        assert page.text_content("#new-title") == "Nueva partida"
        page.reload()
        open_lobby(page, server, "es")
        assert page.text_content("#new-title") == "Nueva partida"
        assert page.evaluate("localStorage.getItem('nemeton:lang')") == "es"
        with page.expect_navigation():
            page.select_option("#language", "it")
        open_lobby(page, server, "it")
        assert page.text_content("#create") == "Crea la partita"
    finally:
        close_pages(page)


def expected_entry(entry, lang, names):
    """An entry's sentence as the page should draw it from its message: Python's rendering in
    ``lang``, each seat as its badge reads (symbol, space, name)."""
    return render(entry["msg"], lang, seat=lambda n: f"{SYMBOLS[n % 6]} {names[n]}")


def test_two_people_in_one_room_each_read_the_room_and_its_log_in_their_own_language(server, browser):
    room, tokens, _creator = create_room(server, "amarok", ["human", "human", "heuristic"])
    pages = {"it": context_page(browser, "it-IT"), "es": context_page(browser, "es-ES")}
    checked = {}
    try:
        for seat, (lang, page) in enumerate(pages.items()):
            page.goto(f"{server.base}/rooms/{room}?token={tokens[seat]}")
            page.wait_for_function("window.nemeton && window.nemeton.snapshot && "
                                   "document.querySelectorAll('#log-list li').length > 0")
        # a few moves, each made by the seat whose turn it is, through its moves list
        for _ in range(3):
            acting = [lang for seat, lang in enumerate(pages) if pages[lang].evaluate(
                "window.nemeton.snapshot.legal_actions.length > 0 && !window.nemeton.pending")]
            if not acting:
                break
            page = pages[acting[0]]
            count = page.evaluate("window.nemeton.snapshot.moves")
            page.locator("#moves").evaluate("d => d.open = true")
            page.wait_for_function("document.querySelectorAll('#moves-list button').length > 0")
            page.locator("#moves-list button").first.click()
            for p in pages.values():
                p.wait_for_function(f"window.nemeton.snapshot.moves > {count}")
        for lang, page in pages.items():
            page.wait_for_function("document.getElementById('connection').textContent.length > 0")
            shell = shell_text(page, ".topbar, .tabs, #players, #log h2, #moves > summary, #controls, #creator, #log-list h3")
            assert WORDS[lang]["players"] in shell and WORDS[lang]["log"] in shell and WORDS[lang]["connected"] in shell
            assert english_left(shell, ROOM_ENGLISH) == [], (lang, shell)
            # the log: every entry that carries a message is drawn from it, in this page's language
            log = page.evaluate("window.nemeton.snapshot.log")
            names = {s["seat"]: s["name"] for s in page.evaluate("window.nemeton.snapshot.seats")}
            assert names[2] == "Cedar (IA)"  # the name the server made up for the AI seat, in this language
            drawn = dict(page.eval_on_selector_all("#log-list li.log-entry", "es => es.map((e) => [e.dataset.i, e.textContent])"))
            assert drawn
            checked[lang] = 0
            for entry in log:
                if entry.get("msg") and entry["msg"]["id"] in catalogue("en"):
                    assert drawn[str(entry["i"])].endswith(expected_entry(entry, lang, names)), (lang, entry)
                    checked[lang] += 1
            if any(e.get("msg") and e["msg"]["id"] in catalogue("en") for e in log):  # once the games send messages
                assert checked[lang] > 0
        it_log = pages["it"].eval_on_selector_all("#log-list h3", "es => es.map((e) => e.textContent)")
        es_log = pages["es"].eval_on_selector_all("#log-list h3", "es => es.map((e) => e.textContent)")
        assert it_log and es_log and it_log != es_log  # "Preparazione"/"Round 1" against "Preparación"/"Ronda 1"
    finally:
        close_pages(*pages.values())


# English of the games' summaries, options and agents as the server writes them: none may be left
# in the lobby's form once the page is Italian or Spanish.
CATALOGUE_ENGLISH = ["Play two cards", "team mode", "round wins needed", "the deck (ruling", "partner's hand",
                     "plays by rules of thumb", "information-set", "Random", "Heuristic", "Search (",
                     "Move your druid", "variant V1", "summary rule", "end the game", "rulebook", "Swap ingredients",
                     "Safety cap", "integer", "rounds to win", "partner hand", "shared herbs"]


def choose_game(page, game):
    page.check(f"#game-choice input[value='{game}']")
    page.wait_for_function(f"document.querySelector('#options [name]') && "
                           f"document.querySelector('#game-choice input[value={game}]').checked")
    page.locator("#options-box").evaluate("d => d.open = true")


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_the_lobby_shows_the_games_summaries_options_and_agents_in_its_language(server, browser, locale, lang):
    words = catalogue(lang)
    page = context_page(browser, locale)
    try:
        open_lobby(page, server, lang)
        for game in ("amarok", "edora", "alarun"):
            choose_game(page, game)
            assert page.text_content("#game-summary") == words[f"{game}.summary"]
            options = shell_text(page, "#options")
            agents = page.eval_on_selector_all("#seat-list .seat-agent option", "os => os.map((o) => o.textContent + ' ' + o.title)")
            assert agents, game
            text = "\n".join([page.text_content("#game-summary"), options, *agents])
            assert english_left(text, CATALOGUE_ENGLISH) == [], (game, text)
            if game == "amarok":
                assert words["amarok.option.teams"] in options and words["amarok.option.rounds_to_win.label"] in options
                assert render({"id": "nemeton.agent.heuristic"}, lang) in agents[1]
            if game == "edora":
                choices = page.eval_on_selector_all("#options select[name=fire_pit_scoring] option",
                                                    "os => os.map((o) => [o.value, o.textContent])")
                assert choices == [["rulebook", words["edora.option.fire_pit_scoring.rulebook"]],
                                   ["summary", words["edora.option.fire_pit_scoring.summary"]]]
        if lang == "it":
            assert "Gioca due carte davanti a te" in words["amarok.summary"]
        assert page.errors == [], page.errors
    finally:
        close_pages(page)


def rules_dialog(page):
    page.wait_for_selector("dialog.rules-dialog[open]")
    return page.locator("dialog.rules-dialog")


def test_the_rules_button_opens_the_rules_in_the_pages_language_and_closes(server, browser):
    page = context_page(browser, "it-IT")
    try:
        open_lobby(page, server, "it")
        button = page.locator("#game-choice .game-card[data-game=amarok] .rules-button")
        assert button.text_content() == "Regole" and button.get_attribute("aria-label") == "Regole di Amarok"
        button.click()
        dialog = rules_dialog(page)
        assert dialog.get_attribute("lang") == "it"
        body = dialog.inner_text()
        assert "Amarok: le regole in breve" in body and "Carta Obiettivo" in body, body[:300]
        assert dialog.locator(".rules-close").get_attribute("aria-label") == "Chiudi"
        dialog.locator(".rules-close").click()
        page.wait_for_selector("dialog.rules-dialog", state="detached")
        assert page.is_checked("#game-choice input[value=alarun]")  # the button chose no game

        # a room's top bar: the same button, the same dialog; Escape closes it
        room, tokens, _creator = create_room(server, "amarok", ["human", "heuristic", "heuristic"])
        page.goto(f"{server.base}/rooms/{room}?token={tokens[0]}")
        page.wait_for_function("window.nemeton && window.nemeton.snapshot")
        assert page.text_content("#rules-button") == "Regole"
        page.click("#rules-button")
        dialog = rules_dialog(page)
        assert "Carta Obiettivo" in dialog.inner_text()
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog.rules-dialog", state="detached")
        # the AI seats' made-up names and agents in Italian
        players = shell_text(page, "#players")
        assert "Cedar (IA)" in players and "(AI)" not in players and "Euristica" in players, players
        assert page.errors == [], page.errors
    finally:
        close_pages(page)


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_options_that_do_not_go_together_are_refused_in_the_pages_language(server, browser, locale, lang):
    """A person picks Amarok for 5 with teams (teams need 4 or 6): the form says why in their
    language, naming nothing in English, and no room is made."""
    page = context_page(browser, locale)
    try:
        open_lobby(page, server, lang)
        choose_game(page, "amarok")
        page.select_option("#players", "5")
        page.check("#options input[name=teams]")
        page.click("#create")
        page.wait_for_function("document.getElementById('form-error').textContent.length > 0")
        shown = page.text_content("#form-error")
        expected = {"it": "Le squadre richiedono 4 o 6 giocatori", "es": "Los equipos requieren 4 o 6 jugadores"}[lang]
        assert shown.startswith(expected), shown
        assert "teams" not in shown and "players" not in shown, shown
        assert page.url.rstrip("/") == server.base.rstrip("/")  # still in the lobby: nothing made
        # a number out of range is named by its label in the language
        page.select_option("#players", "4")
        page.uncheck("#options input[name=teams]")
        page.fill("#options input[name=rounds_to_win]", "12")
        page.click("#create")
        label = catalogue(lang)["amarok.option.rounds_to_win.label"]
        page.wait_for_function(f"document.getElementById('form-error').textContent.includes({label!r})")
        assert "12" in page.text_content("#form-error")
        assert page.errors == [], page.errors
    finally:
        close_pages(page)


@pytest.mark.parametrize("locale,lang", [("it-IT", "it"), ("es-ES", "es")])
def test_the_replay_names_the_ai_seats_agents_in_the_pages_language(server, browser, locale, lang):
    room, _tokens, _ = create_room(server, "alarun", ["random", "heuristic"])
    page = context_page(browser, locale)
    try:
        # as a visitor finds it: the lobby's finished games, the room's replay button
        open_lobby(page, server, lang)
        link = page.locator(f".room[data-room='{room}'] a[href$='/replay']")
        for _ in range(120):  # two AI seats play the game in a few seconds
            page.click(".rooms-filter button[data-filter='finished']")
            page.wait_for_selector("#rooms[data-filter='finished']")
            if link.count():
                break
            page.wait_for_timeout(500)
        assert link.text_content() == catalogue(lang)["nemeton.web.replay_button"]
        link.click()
        page.wait_for_function(f"document.documentElement.lang === '{lang}' && "
                               "document.querySelectorAll('#players .kind').length === 2")
        kinds = page.eval_on_selector_all("#players .kind", "es => es.map((e) => e.textContent)")
        words = catalogue(lang)
        assert kinds == [render({"id": "nemeton.web.ai_kind", "args": {"agent": words[f"nemeton.agent.{a}"]}}, lang)
                         for a in ("random", "heuristic")], kinds
        assert not any("random" in k or "heuristic" in k for k in kinds), kinds
        assert page.errors == [], page.errors
    finally:
        close_pages(page)
