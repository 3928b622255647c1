"""Ruling K1: the deck is package data, validated on load; another deck file can be loaded."""

import json

import pytest

from nemeton.engine import InvalidOptionsError, make
from nemeton.games.amarok.cards import DeckError, load_deck


def test_default_deck_is_ruling_k1():
    deck = load_deck("default")
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


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _toml_cards(n, extra=""):
    body = "".join(f'[[cards]]\nid = "C{i}"\ncolour = "grey"\nvalue = {i}\n\n' for i in range(n))
    return 'name = "test"\n' + body + extra


def test_another_deck_file_loads_without_code_changes(tmp_path):
    text = _toml_cards(7) + '[[cards]]\nid = "H1"\ncolour = "pink"\nvalue = 20\nsymbol = "heart"\n'
    path = _write(tmp_path, "mine.toml", text)
    state = make("amarok", players=3, seed=1, deck=path)
    assert state.view(None)["cards"][-1] == {"id": "H1", "colour": "pink", "value": 20, "symbol": "heart"}
    assert len(state.view(None)["cards"]) == 8


def test_json_deck_file_loads(tmp_path):
    cards = [{"id": f"J{i}", "colour": "x", "value": i} for i in range(8)]
    cards[3]["symbol"] = "wolf_trap"  # the rulebook's long names are accepted
    path = _write(tmp_path, "mine.json", json.dumps({"cards": cards}))
    deck = load_deck(path)
    assert deck.cards[3].symbol_name == "trap"


@pytest.mark.parametrize("card, message", [
    ('id = "C0"\ncolour = "grey"\nvalue = 1\n', "id 'C0' is already used by card 1"),
    ('colour = "grey"\nvalue = 1\n', "card 9: 'id' must be non-empty text"),
    ('id = "Z"\ncolour = "grey"\nvalue = "high"\n', "card 9 ('Z'): 'value' must be an integer"),
    ('id = "Z"\ncolour = "grey"\nvalue = true\n', "card 9 ('Z'): 'value' must be an integer"),
    ('id = "Z"\ncolour = "grey"\nvalue = 1\nsymbol = "sun"\n',
     "card 9 ('Z'): symbol 'sun' is unknown; allowed: heart, claw, season, trap, none"),
    ('id = "Z"\ncolour = "grey"\nvalue = 1\ncolor = "x"\n', "card 9 ('Z') has unknown key(s) color"),
    ('id = "Z"\ncolour = 3\nvalue = 1\n', "card 9 ('Z'): 'colour' must be text"),
])
def test_deck_validation_names_the_bad_card(tmp_path, card, message):
    path = _write(tmp_path, "bad.toml", _toml_cards(8) + "[[cards]]\n" + card)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    assert message in str(err.value)
    assert "bad.toml" in str(err.value)


@pytest.mark.parametrize("name, text, message", [
    ("broken.toml", "[[cards]\nid=", "not valid TOML"),
    ("broken.json", "{", "not valid JSON"),
    ("empty.toml", 'name = "x"\n', "needs a non-empty list 'cards'"),
    ("extra.toml", 'deck = 3\n' + _toml_cards(8), "unknown top-level key(s) deck"),
    ("list.json", "[1, 2]", "must hold a table"),
])
def test_malformed_deck_files_are_rejected(tmp_path, name, text, message):
    with pytest.raises(DeckError, match=None) as err:
        load_deck(_write(tmp_path, name, text))
    assert message in str(err.value)


def test_missing_deck_file_and_wrong_extension_are_rejected(tmp_path):
    with pytest.raises(DeckError, match="cannot read the file"):
        load_deck(str(tmp_path / "nowhere.toml"))
    with pytest.raises(DeckError, match="use 'default' or a path to a .toml or .json"):
        load_deck(str(tmp_path / "deck.yaml"))


def test_deck_too_small_for_the_player_count_is_rejected(tmp_path):
    """K9 needs enough cards: 2 per player in hand plus 2 for the river."""
    path = _write(tmp_path, "small.toml", _toml_cards(10))
    make("amarok", players=4, seed=0, deck=path)  # 10 = 2*4 + 2: enough
    with pytest.raises(InvalidOptionsError) as err:
        make("amarok", players=5, seed=0, deck=path)
    assert "has 10 cards; 5 players need at least 12" in str(err.value)
