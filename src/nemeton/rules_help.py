"""Rules help: each game's rules summary, in the reader's language, as text or as safe HTML.

A summary is a small Markdown file shipped with its game, ``games/<game>/rules_help/<lang>.md``
(``en``, ``it``, ``es``): what a new player needs at our table, in the game's own terms. The
command line prints it (``nemeton rules <game>``), the server sends it as HTML
(``GET /api/games/{game}/rules``) and the web client shows it in a dialog.

The files use a Markdown subset only: ``#``/``##``/``###`` headings, paragraphs, ``-`` bullet
lists (one level; a line indented under an item continues it), ``**bold**`` and ``*italic*``.
:func:`markdown_html` turns that subset into HTML, escaping every character of the text
first, so the result holds no tag but ``h1 h2 h3 p ul li strong em`` and no attribute at all.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .engine.errors import InputError, UnknownGameError
from .i18n import DEFAULT, LANGUAGES, normalize

#: Where the games live: ``<GAMES_DIR>/<game>/rules_help/<lang>.md``.
GAMES_DIR = Path(__file__).resolve().parent / "games"
#: The only tags :func:`markdown_html` writes.
ALLOWED_TAGS = ("h1", "h2", "h3", "p", "ul", "li", "strong", "em")

_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
_HEADING = re.compile(r"(#{1,3})\s+(.*)")
_BULLET = re.compile(r"-\s+(.*)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")


class RulesHelpError(InputError):
    """A rules summary asked for in a language we do not have (the message lists ours)."""


def games_with_rules() -> list[str]:
    """The games that ship a rules summary, sorted by name."""
    if not GAMES_DIR.is_dir():
        return []
    return sorted(p.name for p in GAMES_DIR.iterdir()
                  if _GAME_NAME.fullmatch(p.name) and (p / "rules_help" / f"{DEFAULT}.md").is_file())


def rules_path(game: str, lang: str = DEFAULT) -> Path:
    """The file of ``game``'s summary in ``lang`` (``"it-IT"`` is read as ``"it"``), or the
    English one when that language's file is missing. An unknown game is an
    :class:`~nemeton.engine.errors.UnknownGameError`, a language other than en, it and es a
    :class:`RulesHelpError`; neither is ever used to build a path unchecked."""
    known = games_with_rules()
    if not isinstance(game, str) or game not in known:
        shown = repr(game)[:50] if isinstance(game, str) else type(game).__name__
        raise UnknownGameError(f"no rules summary for game {shown}; games with one: {', '.join(known) or 'none'}")
    code = normalize(lang)
    if code is None:
        shown = repr(lang)[:30] if isinstance(lang, str) else type(lang).__name__
        raise RulesHelpError(f"no rules summary in language {shown}; languages: {', '.join(LANGUAGES)}")
    folder = GAMES_DIR / game / "rules_help"
    path = folder / f"{code}.md"
    return path if path.is_file() else folder / f"{DEFAULT}.md"


def rules_language(game: str, lang: str = DEFAULT) -> str:
    """The language :func:`rules_text` answers in: ``lang``'s code, or ``"en"`` (the fallback)."""
    return rules_path(game, lang).stem


def rules_text(game: str, lang: str = DEFAULT) -> str:
    """``game``'s rules summary in ``lang`` (Markdown subset; English when that language has
    none). Raises as :func:`rules_path` does."""
    return rules_path(game, lang).read_text(encoding="utf-8")


def rules_html(game: str, lang: str = DEFAULT) -> str:
    """``game``'s rules summary in ``lang`` as safe HTML (see :func:`markdown_html`)."""
    return markdown_html(rules_text(game, lang))


def markdown_html(text: str) -> str:
    """The Markdown subset as HTML. Every character of the text is escaped before any tag is
    written, so whatever the text holds (``<script>``, quotes, ampersands, unknown Markdown) it
    stays text; the tags written are only :data:`ALLOWED_TAGS`, without attributes. Other
    Markdown (numbered lists, links, code, tables) is shown as the plain text it is."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[list[str]] = []

    def close_paragraph() -> None:
        if paragraph:
            out.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    def close_list() -> None:
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(' '.join(item))}</li>" for item in items) + "</ul>")
            items.clear()

    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if not line:
            close_paragraph()
            close_list()
            continue
        heading = _HEADING.fullmatch(line)
        bullet = _BULLET.fullmatch(line)
        if heading and not raw[:1].isspace():
            close_paragraph()
            close_list()
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2).strip())}</h{level}>")
        elif bullet and not raw[:1].isspace():
            close_paragraph()
            items.append([bullet.group(1)])
        elif items and raw[:1].isspace():
            items[-1].append(line)  # an indented line continues the list item above
        else:
            close_list()
            paragraph.append(line)
    close_paragraph()
    close_list()
    return "\n".join(out)


def _inline(text: str) -> str:
    """One block's text, escaped, with ``**bold**`` and ``*italic*``."""
    escaped = html.escape(text, quote=True)
    escaped = _BOLD.sub(lambda m: f"<strong>{m.group(1)}</strong>", escaped)
    return _ITALIC.sub(lambda m: f"<em>{m.group(1)}</em>", escaped)


__all__ = ["ALLOWED_TAGS", "GAMES_DIR", "RulesHelpError", "games_with_rules", "markdown_html", "rules_html",
           "rules_language", "rules_path", "rules_text"]
