"""``nemeton rules GAME``: a game's rules summary in the terminal's language (``--lang`` here or
before the command, else LANG; English where a language has no summary)."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from ..engine import NemetonError
from .common import checked_language, complete_game, console, fail, lang_option, language


def rules_command(
    game: str = typer.Argument(..., help="Game name (see `nemeton games`).", autocompletion=complete_game),
    lang: str | None = lang_option(),
) -> None:
    """Print a game's rules summary: goal, setup, a turn, every action, scoring and the end, and
    the options we offer."""
    from ..rules_help import rules_text

    try:
        text = rules_text(game, checked_language(lang) or language())
    except NemetonError as exc:
        fail(str(exc))
    console.print(Markdown(text))


__all__ = ["rules_command"]
