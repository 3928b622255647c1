"""What every command shares: printing text literally, failing with a message, and the
command line's edge, where files are read and options parsed.

User text (game names, option values, agent specs, typed answers, error messages that quote
them) may hold brackets; Rich would read ``[...]`` as markup, so nothing here passes text
through markup: styled output is built from :class:`rich.text.Text` pieces.
"""

from __future__ import annotations

import sys
from typing import Any, List, NoReturn, Optional

import typer
from rich.console import Console
from rich.text import Text

from ..engine import GameSpec, content_hash
from ..engine.options import MAX_DATA_CHARS, OptionInfo

console = Console()
err = Console(stderr=True)

# Words that mean "the standard one" for a data option (a file of that name: ./standard).
STANDARD_WORDS = ("none", "standard")


def say(text: str, style: str | None = None, *, to: Console | None = None) -> None:
    """Print ``text`` literally (no markup, no highlighting), in ``style`` if given."""
    (to or console).print(Text(text, style=style or ""), highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on standard error (literally) and exit with ``code``."""
    err.print(Text.assemble(("error: ", "bold red"), message), highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def read_text_file(path: str, what: str) -> str:
    """The text of the UTF-8 file at ``path`` (``"-"`` = standard input; a byte-order mark is
    dropped); a missing or unreadable file, one that is not UTF-8 or one too large to be a
    game's data exits 2 with a message naming ``what`` it was for."""
    limit = MAX_DATA_CHARS * 4  # UTF-8 needs at most 4 bytes a character
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
    except OSError as exc:
        fail(f"{what}: cannot read {path}: {exc.strerror or exc}")
    shown = "standard input" if path == "-" else path
    if len(data) > limit:
        fail(f"{what}: {shown} is too large (more than {limit:,} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(f"{what}: {shown} is not UTF-8 text (byte {exc.start} is {data[exc.start:exc.start + 1]!r}); "
             "save it as UTF-8")


# ----- the terminal's language (LANG, or --lang before the command) -----
_LANGUAGE: list[str] = []


def language() -> str:
    """The language the terminal speaks: ``nemeton --lang``, else the environment's
    (``NEMETON_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    from ..i18n import from_environment
    return _LANGUAGE[0] if _LANGUAGE else from_environment()


def tr(id: str, **args: Any) -> str:
    """Message ``id`` in the terminal's language (:func:`language`)."""
    from ..i18n import t
    return t(id, language(), **args)


def error_text(exc: Exception) -> str:
    """An error as the terminal says it: its message in the terminal's language where it
    carries one (``exc.msg``: options refused), else its English text."""
    from ..i18n import render
    lang = language()
    message = getattr(exc, "msg", None)
    return str(exc) if lang == "en" or not message else render(message, lang)


def lang_option() -> Any:
    """A command's own ``--lang`` (``nemeton play GAME --lang it``), the same as ``nemeton --lang
    it play GAME``; the command calls :func:`choose_language` with it."""
    from ..i18n import LANGUAGES
    return typer.Option(None, "--lang", autocompletion=complete_from(*LANGUAGES),
                        help="The language: en, it or es (default: `nemeton --lang`, else the "
                             "environment's, LANG; else English).")


def choose_language(code: str | None) -> None:
    """A command's ``--lang``, where given, over ``nemeton --lang`` and the environment."""
    if code is not None:
        set_language(code)


def checked_language(code: str | None) -> str | None:
    """``--lang``'s code as the catalogues name it (``it_IT`` is ``it``); None for None; a
    language we lack fails with the list."""
    from ..i18n import LANGUAGES, normalize
    if code is None:
        return None
    found = normalize(code)
    if found is None:
        fail(f"--lang must be one of {', '.join(LANGUAGES)}; got {code!r}")
    return found


def set_language(code: str | None) -> None:
    found = checked_language(code)
    if found is None:  # the environment's (each command run afresh: a test runs many in one process)
        _LANGUAGE.clear()
        return
    _LANGUAGE[:] = [found]


# ----- shell completion of the fixed choices (`nemeton --install-completion`) -----
def complete_game(incomplete: str) -> list[str]:
    """The game names starting with what is typed."""
    from ..engine import list_games
    return [spec.name for spec in list_games() if spec.name.startswith(incomplete)]


def complete_agents(incomplete: str) -> list[str]:
    """Agent names for a comma-separated list of specs: the last entry is completed (built-in
    and registered agents; your own code, ``module:Class``, is not guessed)."""
    return _agent_names(incomplete, ())


def _agent_names(incomplete: str, extra: tuple[str, ...]) -> list[str]:
    from ..agents.base import _agent_classes, registered_agents
    head, comma, last = incomplete.rpartition(",")
    names = [*_agent_classes(), *registered_agents(), *extra]
    return [head + comma + n for n in dict.fromkeys(names) if n.startswith(last)]


def complete_seats(incomplete: str) -> list[str]:
    """As :func:`complete_agents`, with ``human`` (your seat in ``nemeton play``)."""
    return _agent_names(incomplete, ("human",))


def complete_from(*choices: str):
    """A completion callback offering ``choices``."""
    def complete(incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete)]
    return complete


def split_agent_specs(text: str) -> list[str]:
    """``"ismcts:seconds=1,heuristic"`` -> specs; an empty entry is an error."""
    specs = [a.strip() for a in text.split(",")]
    if any(not a for a in specs):
        fail(f"--agents {text!r} has an empty entry; give specs separated by single commas, "
             "e.g. ismcts:seconds=1,heuristic")
    return specs


def show(value: Any) -> str:
    """An option value as a person types it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def shown_option(info: OptionInfo, value: Any) -> str:
    """An option value as shown: a data option by its content hash, others as typed."""
    if info.data is None:
        return show(value)
    if value is None:
        return "standard" + (f" ({info.standard_hash})" if info.standard_hash else "")
    return content_hash(value)


def parse_option_pairs(spec: GameSpec, pairs: List[str], **files: Optional[str]) -> dict[str, Any]:
    """``name=value`` strings (and the ``--deck``/``--board`` shortcuts, ``name=FILE``) as raw
    game options. A data option's value is a file's path here: the file is read and its
    text passed on (``none`` or ``standard`` = the standard one)."""
    raw: dict[str, tuple[str, str]] = {}  # name -> (value, where it came from)
    for name, path in files.items():
        if path is not None:
            raw[name] = (path, f"--{name}")
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            fail(f"--option expects name=value, got {pair!r}")
        if key == "players":
            fail("give the number of players with --players, not --option players=...")
        raw[key] = (value.strip(), f"--option {key}")
    data = {info.name: info for info in spec.describe_options() if info.data is not None}
    out: dict[str, Any] = {}
    for name, (value, where) in raw.items():
        if name not in data:
            out[name] = value  # the engine checks it (an unknown name is its error too)
        elif value.lower() in STANDARD_WORDS:
            out[name] = None
        else:
            out[name] = read_text_file(value, where)
    return out
