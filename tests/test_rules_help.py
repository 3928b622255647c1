"""Rules help (issue 30): each game's rules summary in English, Italian and Spanish
(src/nemeton/games/<game>/rules_help/<lang>.md), nemeton.rules_help's text and safe HTML, and
the ``nemeton rules`` command."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from nemeton import rules_help
from nemeton.cli import common
from nemeton.cli.rules import rules_command
from nemeton.engine.errors import InputError, NemetonError, UnknownGameError
from nemeton.rules_help import (ALLOWED_TAGS, RulesHelpError, games_with_rules, markdown_html, rules_html,
                                rules_language, rules_text)

GAMES = ("alarun", "amarok", "edora")
LANGS = ("en", "it", "es")
PACKAGE = Path(rules_help.__file__).resolve().parent

# Each game's terms as its rulebook names them (Alarún's English rulebook, Amarok's Italian one,
# Edora's Spanish summary) and their translations into the other two languages.
TERMS = {
    ("alarun", "en"): ["magic square", "druid apprentice", "Centum auri", "Swap and pass", "Moon berries",
                       "Phoenix feathers", "colour card", "potion"],
    ("alarun", "it"): ["quadrato magico", "apprendista druido", "Centum auri", "Scambia e passa", "Bacche di luna",
                       "Piume di fenice", "carta colore", "pozione"],
    ("alarun", "es"): ["cuadrado mágico", "aprendiz de druida", "Centum auri", "Intercambiar y pasar",
                       "Bayas de luna", "Plumas de fénix", "carta de color", "poción"],
    ("amarok", "it"): ["Carta Obiettivo", "Branco di Lupi", "Lupo Solitario", "Artiglio", "Trappola per Lupi",
                       "Cambio di Stagione", "Accoppiamento", "Fiume", "Impronta della Zampa Sacra",
                       "Tracciato del Punteggio", "Foresta Temperata", "Foresta Boreale"],
    ("amarok", "en"): ["Objective card", "Wolf Pack", "Lone Wolf", "Claw", "Wolf Trap", "Change of Season",
                       "Mating", "River", "Sacred Paw Print"],
    ("amarok", "es"): ["Carta de Objetivo", "Manada de Lobos", "Lobo Solitario", "Garra", "Trampa para Lobos",
                       "Cambio de Estación", "Apareamiento", "Río", "Huella de la Pata Sagrada"],
    ("edora", "es"): ["santuario", "provisiones", "muérdago", "dólmenes", "pozo de fuego", "hierbas medicinales",
                      "hoz", "tablas de piedra", "piedras oráculo", "Druida en apuros", "Druida Maestro",
                      "barra de conocimiento", "piedras erectas", "amuleto"],
    ("edora", "en"): ["sanctuary", "provisions", "mistletoe", "dolmens", "fire pit", "herbs", "sickle",
                      "stone tablet", "oracle stones", "Druid in trouble", "Master Druid", "standing stone"],
    ("edora", "it"): ["santuario", "provviste", "vischio", "dolmen", "pozzo del fuoco", "erbe medicinali",
                      "falcetto", "tavolette di pietra", "pietre dell'oracolo", "Druido in difficoltà",
                      "Druido Maestro", "pietre erette"],
}


def md_path(game: str, lang: str) -> Path:
    return PACKAGE / "games" / game / "rules_help" / f"{lang}.md"


def flat(text: str) -> str:
    """The text with every run of whitespace one space (a term may wrap across lines)."""
    return " ".join(text.split()).lower()


def headings(text: str, level: int) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#" * level + " ")]


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list = []
        self.stack: list[str] = []
        self.balanced = True
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False

    def handle_data(self, data):
        self.text.append(data)


def parse(html_text: str) -> TagCollector:
    collector = TagCollector()
    collector.feed(html_text)
    collector.close()
    return collector


# ----- the nine files ------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_each_summary_exists_with_one_title_and_50_to_120_lines(game, lang):
    path = md_path(game, lang)
    assert path.is_file(), path
    text = path.read_text(encoding="utf-8")
    assert 50 <= len(text.splitlines()) <= 120
    assert text.splitlines()[0].startswith("# ") and len(headings(text, 1)) == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_three_languages_of_a_game_have_the_same_sections(game):
    texts = {lang: md_path(game, lang).read_text(encoding="utf-8") for lang in LANGS}
    for level in (2, 3):
        counts = {lang: len(headings(text, level)) for lang, text in texts.items()}
        assert len(set(counts.values())) == 1, f"{game}: {'#' * level} sections per language {counts}"
    assert len(headings(texts["en"], 2)) >= 5
    # the bullets too, section by section (a translation drops or adds no rule)
    def bullets_per_section(text: str) -> list[int]:
        out = [0]
        for line in text.splitlines():
            if line.startswith("## "):
                out.append(0)
            elif line.startswith("- "):
                out[-1] += 1
        return out
    shapes = {lang: bullets_per_section(text) for lang, text in texts.items()}
    assert shapes["it"] == shapes["en"] == shapes["es"], shapes


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_only_the_markdown_subset_is_used(game, lang):
    for n, line in enumerate(md_path(game, lang).read_text(encoding="utf-8").splitlines(), 1):
        where = f"{game}/{lang}.md:{n}: {line!r}"
        assert not re.match(r"\s*(\d+[.)]\s|[*+]\s|>|\||```|####)", line), where  # no other list, quote, table
        assert "`" not in line and "](" not in line and "<" not in line and "\t" not in line, where
        if line[:1].isspace():
            assert line.startswith("  ") and not line.startswith("   "), where  # a list item's continuation
        assert line == line.rstrip(), where
    html_text = rules_html(game, lang)
    assert "*" not in html_text.replace("×", ""), f"{game}/{lang}: an unmatched emphasis mark"


@pytest.mark.parametrize("game,lang", sorted(TERMS))
def test_each_summary_uses_the_rulebooks_terms(game, lang):
    text = flat(rules_text(game, lang))
    missing = [term for term in TERMS[(game, lang)] if flat(term) not in text]
    assert missing == [], f"{game}/{lang} lacks {missing}"


def test_the_translations_say_the_rulings_numbers():
    # facts from docs/rules/<game>.md that every language states the same way
    for lang in LANGS:
        alarun = flat(rules_text("alarun", lang))
        assert all(n in alarun for n in ("5×5", "24", "= 15", "10", "30")), lang
        amarok = flat(rules_text("amarok", lang))
        assert all(n in amarok for n in ("22", "11", "0", "10", "9")), lang
        edora = flat(rules_text("edora", lang))
        assert all(n in edora for n in ("15", "13", "18", "8, 6", "×4", "40")), lang


# ----- rules_text and rules_html ---------------------------------------------------------------
def test_the_games_with_a_summary_are_the_three():
    assert games_with_rules() == list(GAMES)


def test_a_language_tag_is_normalised_and_english_is_the_fallback(tmp_path, monkeypatch):
    assert rules_text("amarok", "it-IT") == md_path("amarok", "it").read_text(encoding="utf-8")
    assert rules_language("edora", "ES") == "es"
    folder = tmp_path / "fake" / "rules_help"
    folder.mkdir(parents=True)
    (folder / "en.md").write_text("# Fake\n\nOnly English.\n", encoding="utf-8")
    monkeypatch.setattr(rules_help, "GAMES_DIR", tmp_path)
    assert rules_text("fake", "it") == "# Fake\n\nOnly English.\n"
    assert rules_language("fake", "es") == "en"


@pytest.mark.parametrize("game", ["chess", "../alarun", "alarun/../amarok", "", "ALARUN", "__pycache__"])
def test_an_unknown_game_is_a_clear_error(game):
    with pytest.raises(UnknownGameError, match="games with one: alarun, amarok, edora") as caught:
        rules_text(game, "en")
    assert isinstance(caught.value, NemetonError)


@pytest.mark.parametrize("lang", ["fr", "xx", "", "../en", "en/../../x"])
def test_an_unknown_language_is_a_clear_error(lang):
    with pytest.raises(RulesHelpError, match="languages: en, it, es") as caught:
        rules_html("alarun", lang)
    assert isinstance(caught.value, InputError) and isinstance(caught.value, NemetonError)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_rules_html_writes_only_the_subsets_tags_without_attributes(game, lang):
    html_text = rules_html(game, lang)
    parsed = parse(html_text)
    assert set(parsed.tags) <= set(ALLOWED_TAGS)
    assert parsed.attrs == [] and parsed.balanced and parsed.stack == []
    assert parsed.tags.count("h1") == 1 and {"h2", "p", "ul", "li", "strong"} <= set(parsed.tags)
    # every word of the file is in the page (nothing lost to the conversion)
    words = re.findall(r"[^\W\d_]{4,}", md_path(game, lang).read_text(encoding="utf-8"))
    text = "".join(parsed.text)
    assert [w for w in words if w not in text] == []


HOSTILE = ('# Title <script>alert("h1")</script>\n\n'
           'A <img src=x onerror=alert(1)> & "quotes" \'too\' **<b>bold</b>** *<i onclick="x">it</i>*\n'
           '- <a href="javascript:alert(2)">link</a> [md](javascript:alert(3))\n'
           '  continued </li></ul><script>alert(4)</script>\n'
           '#### deeper <style>x</style>\n'
           '1. numbered\n'
           '```\ncode `x`\n```\n')


def test_hostile_text_in_a_summary_stays_text(tmp_path, monkeypatch):
    folder = tmp_path / "evil" / "rules_help"
    folder.mkdir(parents=True)
    (folder / "en.md").write_text(HOSTILE, encoding="utf-8")
    monkeypatch.setattr(rules_help, "GAMES_DIR", tmp_path)
    html_text = rules_html("evil", "en")
    parsed = parse(html_text)
    assert set(parsed.tags) <= set(ALLOWED_TAGS) and parsed.attrs == [] and parsed.balanced
    for raw in ("<script", "<img", "<a ", "<b>", "<i ", "<style", "</li></ul><script"):
        assert raw not in html_text
    assert "&lt;script&gt;alert(&quot;h1&quot;)&lt;/script&gt;" in html_text
    assert "<strong>&lt;b&gt;bold&lt;/b&gt;</strong>" in html_text
    assert "<em>&lt;i onclick=&quot;x&quot;&gt;it&lt;/i&gt;</em>" in html_text
    # the text a reader sees is exactly what the file says
    text = "".join(parsed.text)
    assert '<script>alert("h1")</script>' in text and "<img src=x onerror=alert(1)>" in text
    assert "#### deeper <style>x</style>" in text and "[md](javascript:alert(3))" in text


def test_markdown_html_blocks():
    assert markdown_html("# A\n## B\n### C\n\npara one\nstill one\n\n- x\n  y\n- *z*\nafter") == (
        "<h1>A</h1>\n<h2>B</h2>\n<h3>C</h3>\n<p>para one still one</p>\n"
        "<ul><li>x y</li><li><em>z</em></li></ul>\n<p>after</p>")
    assert markdown_html("2 * 3 * 4 and a*b*c") == "<p>2 * 3 * 4 and a*b*c</p>"  # not emphasis
    assert markdown_html("") == ""


# ----- the command ------------------------------------------------------------------------------
def rules_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(rules_command)
    return app


def test_the_rules_command_prints_italian_with_lang_it():
    result = CliRunner().invoke(rules_app(), ["amarok", "--lang", "it"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Amarok: le regole in breve" in out
    for word in ("Artiglio", "Obiettivo", "Trappola", "Accoppiamento", "Fiume"):
        assert word in out
    assert "**" not in out and "Claw" not in out


def test_the_rules_command_speaks_the_terminals_language(monkeypatch):
    monkeypatch.setattr(common, "_LANGUAGE", [])  # no `nemeton --lang` given in this process
    result = CliRunner().invoke(rules_app(), ["edora"], env={"NEMETON_LANG": "es"})
    assert result.exit_code == 0, result.output
    assert "Druida en apuros" in result.output and "muérdago" in result.output
    result = CliRunner().invoke(rules_app(), ["alarun"], env={"NEMETON_LANG": "", "LANGUAGE": "", "LC_ALL": "C"})
    assert result.exit_code == 0 and "Alarún: the rules in brief" in result.output
    monkeypatch.setattr(common, "_LANGUAGE", ["it"])  # `nemeton --lang it rules alarun`
    result = CliRunner().invoke(rules_app(), ["alarun"])
    assert result.exit_code == 0 and "quadrato magico" in result.output


def test_the_rules_command_refuses_an_unknown_game_or_language():
    result = CliRunner().invoke(rules_app(), ["chess"])
    assert result.exit_code == 2 and "no rules summary for game 'chess'" in result.output
    result = CliRunner().invoke(rules_app(), ["alarun", "--lang", "fr"])
    assert result.exit_code == 2 and "--lang must be one of en, it, es" in result.output
