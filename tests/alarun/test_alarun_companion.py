"""The scoring companion: ``nemeton alarun score FILE [--json]`` for squares of the physical game."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from nemeton.cli.companion import companion_app
from nemeton.engine import get_game
from nemeton.engine import InputError
from nemeton.games.alarun.companion import parse_square

runner = CliRunner()
app = companion_app(get_game("alarun"))

LAUREN = {
    "square": [
        ["fungi_magica:yellow", "fungi_magica:white", "fungi_magica:pink", "moon_berries:blue", "fungi_magica:orange"],
        ["dragon_eggs:yellow", "dragon_eggs:white", "dragon_eggs:pink", "druid", "dragon_eggs:red"],
        ["centum_auri", "moon_berries:white", "moon_berries:pink", "moon_berries:blue", "moon_berries:red"],
        ["calendula:yellow", "phoenix_feathers:white", "mandrake:pink", "myrrh:blue", "fungi_magica:red"],
        ["phoenix_feathers:yellow", "phoenix_feathers:green", "phoenix_feathers:pink", "calendula:blue",
         "calendula:red"],
    ],
    "secret_colour": "red",
}


def run(tmp_path, data, *args):
    path = tmp_path / "square.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return runner.invoke(app, ["score", str(path), *args])


def test_score_json_prints_one_object_with_every_part(tmp_path):
    result = run(tmp_path, LAUREN, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rows"] == [6, 15, 10, 1, 6] and data["columns"] == [3, 10, 15, 10, 10]
    assert data["potions"] == 86 and data["centum_auri"] == 10 and data["colour_bonus"] == 8
    assert data["total"] == 104 and data["druid"] == "dragon_eggs:blue"


def test_score_table_is_readable(tmp_path):
    result = run(tmp_path, LAUREN)
    assert result.exit_code == 0, result.output
    for text in ("row points", "column points", "DRUI", "Centum auri: 10", "colour bonus (red): 8", "total: 104",
                 "druid apprentice counts as: Dragon eggs (blue) (the best choice, made for you)"):
        assert text in result.stdout


@pytest.mark.parametrize("lang,texts", [
    ("it", ["Alarún: il tuo quadrato magico", "punti riga", "punti colonna", "riga 1", "DRUI",
            "pozioni: righe 38 + colonne 48 = 86", "bonus colore (rosso): 8", "totale: 104"]),
    ("es", ["Alarún: tu cuadrado mágico", "puntos fila", "puntos columna", "fila 1", "DRUI",
            "pociones: filas 38 + columnas 48 = 86", "bonificación de color (rojo): 8", "total: 104"]),
])
def test_the_score_sheet_speaks_the_terminals_language(tmp_path, lang, texts):
    path = tmp_path / "square.json"
    path.write_text(json.dumps(LAUREN), encoding="utf-8")
    from nemeton.cli import app as main_app
    result = runner.invoke(main_app, ["--lang", lang, "alarun", "score", str(path)])
    assert result.exit_code == 0, result.output
    for text in texts:
        assert text in result.stdout, (text, result.stdout)
    # the command's own --lang says the same
    assert runner.invoke(main_app, ["alarun", "score", str(path), "--lang", lang]).stdout == result.stdout
    assert "row points" not in result.stdout and "colour bonus" not in result.stdout and "potions" not in result.stdout
    # the JSON is the same in every language (programs read it)
    english = runner.invoke(main_app, ["alarun", "score", str(path), "--json"]).stdout
    assert runner.invoke(main_app, ["--lang", lang, "alarun", "score", str(path), "--json"]).stdout == english


def test_a_druid_set_by_the_person_is_used(tmp_path):
    data = {**LAUREN, "druid": "moon_berries:blue"}
    result = json.loads(run(tmp_path, data, "--json").stdout)
    assert result["druid"] == "moon_berries:blue" and result["rows"][1] == 6 and result["total"] < 104


def _with_cell(r, c, value):
    data = copy.deepcopy(LAUREN)
    data["square"][r - 1][c - 1] = value
    return data


@pytest.mark.parametrize("data,message", [
    ("{not json", "not JSON"),
    ([1, 2], "one JSON object"),
    ({**LAUREN, "square": LAUREN["square"][:4]}, "5 rows of 5 cells"),
    ({**LAUREN, "square": [row[:4] if i == 1 else row for i, row in enumerate(LAUREN["square"])]},
     "row 2: a row must be a list of 5 cells"),
    (_with_cell(2, 4, "dragon_eggs:purple"), "row 2, column 4: unknown colour 'purple'; colours: blue, green"),
    (_with_cell(1, 1, "toadstool:red"), "row 1, column 1: unknown ingredient 'toadstool'; ingredients: fungi_magica"),
    (_with_cell(1, 1, "moon_berries:blue"), "row 3, column 4: a third moon_berries:blue (also at row 1, column 1 and row 1, column 4)"),
    (_with_cell(5, 5, "centum_auri"), "row 5, column 5: a second centum_auri"),
    (_with_cell(5, 5, "druid"), "row 5, column 5: a second druid"),
    (_with_cell(2, 4, "dragon_eggs:blue"), "no druid"),
    (_with_cell(3, 3, 7), "row 3, column 3: a cell is text"),
    ({"square": LAUREN["square"]}, "missing 'secret_colour'"),
    ({**LAUREN, "secret_colour": "purple"}, "secret_colour: unknown colour"),
    ({**LAUREN, "secret_color": "red"}, "unknown key 'secret_color'"),
    ({**LAUREN, "druid": "dragon_eggs:navy"}, "druid: unknown colour 'navy'"),
    ({**LAUREN, "druid": "centum_auri"}, "druid: 'centum_auri' is not an ingredient card"),
    (_with_cell(4, 2, "phoenix"), "row 4, column 2: 'phoenix' is not a card"),
])
def test_a_malformed_file_says_which_part_is_wrong_and_exits_2(tmp_path, data, message):
    result = run(tmp_path, data, "--json")
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


def test_validation_raises_input_error():
    with pytest.raises(InputError, match="row 2, column 4: unknown colour 'purple'"):
        parse_square(_with_cell(2, 4, "myrrh:purple"))


def test_a_missing_file_is_an_error(tmp_path):
    result = runner.invoke(app, ["score", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_a_file_that_is_not_utf8_exits_2_with_a_message(tmp_path):
    path = tmp_path / "square.json"
    path.write_bytes(b'{"square": "\xff"}')
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.output and "Traceback" not in result.output


def test_brackets_in_a_file_name_are_printed_as_typed(tmp_path):
    result = runner.invoke(app, ["score", str(tmp_path / "[bold]x[/].json")])
    assert result.exit_code == 2
    assert "[bold]x[/].json" in result.output


@pytest.mark.parametrize("text,message", [("[" * 100_000 + "]" * 100_000, "nested far too deep"),
                                          ('{"square": ' + "1" * 5000 + "}", "not JSON that Nemeton reads")])
def test_hostile_json_exits_2_with_a_message(tmp_path, text, message):
    path = tmp_path / "square.json"
    path.write_text(text, "utf-8")
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
