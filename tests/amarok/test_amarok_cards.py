"""Ruling K1: the deck is data. The ``deck`` option holds a deck file's text (None = the
standard deck shipped with the game), validated on load; only the command line reads a file."""

import json

import pytest

from nemeton.engine import GameRecord, InputError, InvalidOptionsError, content_hash, display_options, make
from nemeton.games.amarok.components import DeckError, load_deck, parse_deck_text, standard_deck_text


def test_default_deck_is_ruling_k1():
    deck = load_deck(None)
    assert len(deck) == 22
    for colour, letter in (("red", "R"), ("blue", "B")):
        cards = [c for c in deck.cards if c.colour == colour]
        assert sorted(c.value for c in cards) == list(range(11))
        assert all(c.id == f"{letter}{c.value}" for c in cards)
    symbols = {c.id: c.symbol_name for c in deck.cards if c.symbol_name}
    assert symbols == {
        "R0": "heart", "R6": "heart", "B3": "heart", "B8": "heart",
        "R2": "claw", "R8": "claw", "B5": "claw", "B10": "claw",
        "R4": "season", "B6": "season",
        "R9": "trap", "B1": "trap",
    }


def test_the_deck_option_is_data_whose_standard_is_the_packaged_deck():
    state = make("amarok", players=3, seed=1)
    assert state.options.deck is None
    assert display_options(state.options)["deck"] == f"standard ({content_hash(standard_deck_text())})"
    same = make("amarok", players=3, seed=1, deck=standard_deck_text())  # the same deck, spelt out
    assert same.to_json()["hands"] == state.to_json()["hands"]


def _toml_cards(n, extra=""):
    body = "".join(f'[[cards]]\nid = "C{i}"\ncolour = "grey"\nvalue = {i}\n\n' for i in range(n))
    return 'name = "test"\n' + body + extra


def test_another_deck_loads_from_its_text_without_code_changes():
    text = _toml_cards(7) + '[[cards]]\nid = "H1"\ncolour = "pink"\nvalue = 20\nsymbol = "heart"\n'
    state = make("amarok", players=3, seed=1, deck=text)
    assert state.view(None)["cards"][-1] == {"id": "H1", "colour": "pink", "value": 20, "symbol": "heart"}
    assert len(state.view(None)["cards"]) == 8


def test_json_deck_text_is_told_apart_from_toml():
    cards = [{"id": f"J{i}", "colour": "x", "value": i} for i in range(8)]
    cards[3]["symbol"] = "wolf_trap"  # the rulebook's long names are accepted
    deck = load_deck(json.dumps({"cards": cards}))
    assert deck.cards[3].symbol_name == "trap" and deck.ids[0] == "J0"


def test_a_record_with_another_deck_replays_without_any_file():
    text = _toml_cards(12)
    state = make("amarok", players=3, seed=2, deck=text)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    record = GameRecord.loads(state.record().dumps())
    assert record.options["deck"] == text
    assert record.replay().to_json() == state.to_json()


def test_deck_parsing_is_cached_by_content():
    text = _toml_cards(9)
    assert load_deck(text) is load_deck("".join(text))  # equal text, another string object
    assert load_deck.cache_info().maxsize == 32  # bounded


@pytest.mark.parametrize("card, message", [
    ('id = "C0"\ncolour = "grey"\nvalue = 1\n', "id 'C0' is already used by card 1"),
    ('colour = "grey"\nvalue = 1\n', "card 9: 'id' must be non-empty text"),
    ('id = "Z"\ncolour = "grey"\nvalue = "high"\n', "card 9 ('Z'): 'value' must be an integer"),
    ('id = "Z"\ncolour = "grey"\nvalue = true\n', "card 9 ('Z'): 'value' must be an integer"),
    ('id = "Z"\ncolour = "grey"\nvalue = 10000000\n', "card 9 ('Z'): 'value' must be from"),
    ('id = "Z"\ncolour = "grey"\nvalue = 1\nsymbol = "sun"\n',
     "card 9 ('Z'): symbol 'sun' is unknown; allowed: heart, claw, season, trap, none"),
    ('id = "Z"\ncolour = "grey"\nvalue = 1\ncolor = "x"\n', "card 9 ('Z') has unknown key(s) color"),
    ('id = "Z"\ncolour = 3\nvalue = 1\n', "card 9 ('Z'): 'colour' must be text"),
    (f'id = "{"Z" * 41}"\nvalue = 1\n', "'id' must be non-empty text of at most 40 characters"),
])
def test_deck_validation_names_the_bad_card(card, message):
    with pytest.raises(InvalidOptionsError) as err:  # a DeckError is both an options and an input error
        make("amarok", players=3, seed=0, deck=_toml_cards(8) + "[[cards]]\n" + card)
    assert isinstance(err.value, DeckError) and isinstance(err.value, InputError)
    assert message in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("[[cards]\nid=", "not valid TOML"),
    ("{", "not valid JSON"),
    ('name = "x"\n', "needs a non-empty list 'cards'"),
    ('deck = 3\n' + _toml_cards(8), "unknown top-level key(s) deck"),
    ("[1, 2]", "must hold a table"),
    ('{"cards": ' + "[" * 5000 + "]" * 5000 + "}", "not valid JSON"),
    ("default", "not a name or a path"),
    ("decks/printed.toml", "on the command line use --deck FILE"),
])
def test_malformed_deck_text_is_rejected_with_a_message(text, message):
    with pytest.raises(DeckError) as err:
        load_deck(text)
    assert message in str(err.value)


def test_deck_too_small_for_the_player_count_is_rejected():
    """K9 needs enough cards: 2 per player in hand plus 2 for the river."""
    text = _toml_cards(10)
    make("amarok", players=4, seed=0, deck=text)  # 10 = 2*4 + 2: enough
    with pytest.raises(InvalidOptionsError) as err:
        make("amarok", players=5, seed=0, deck=text)
    assert "has 10 cards; 5 players need at least 12" in str(err.value)


def test_the_deck_option_must_be_text():
    with pytest.raises(InvalidOptionsError, match="must be the text of a TOML or JSON deck"):
        make("amarok", players=3, seed=0, deck=["R1"])


# ----- the command line's edge: reading a deck file ------------------------------------------
def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_nothing_in_the_game_opens_a_path_from_its_options(tmp_path):
    path = _write(tmp_path, "mine.toml", _toml_cards(9))
    with pytest.raises(DeckError, match="not a name or a path"):
        make("amarok", players=3, seed=0, deck=str(path))
    assert parse_deck_text(path.read_text()).ids[0] == "C0"
