"""``nemeton rules GAME``: a game's rules summary in the terminal's language (``--lang`` here or
before the command, else LANG; English where a language has no summary)."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from ..engine import NemetonError
from ..i18n import LANGUAGES, normalize
from .common import complete_from, complete_game, console, fail, language


def rules_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`).", autocompletion=complete_game),
    lang: str | None = typer.Option(None, "--lang", autocompletion=complete_from(*LANGUAGES),
                                  help="The language: en, it or es (default: the terminal's, "
                                       "from `nemeton --lang` or LANG; else English)."),
) -> None:
    """Print a game's rules summary: goal, setup, a turn, every action, scoring and the end, and
    the options we offer."""
    from ..rules_help import rules_text

    if lang is not None and normalize(lang) is None:
        fail(f"--lang must be one of {', '.join(LANGUAGES)}; got {lang!r}")
    try:
        text = rules_text(game, lang or language())
    except NemetonError as exc:
        fail(str(exc))
    console.print(Markdown(text))


__all__ = ["rules_command"]
