"""Messages in the reader's language: English, Italian and Spanish (docs/i18n.md).

The engine, the server and the clients never send sentences to be parsed: they send
**messages**, a message id with structured arguments, and each client renders them in its
reader's language from the same gettext catalogues.

A message (JSON-ready)::

    {"id": "alarun.event.pass", "args": {"seat": {"seat": 1}}}

An argument is one of

- a number (``int`` or ``float``): formatted for the locale (``1,234.5`` / ``1.234,5``);
- a string: shown as it is (a player's name, a proper noun, a file's text): never a word
  that needs translating;
- ``{"seat": n}``: a seat, which a client shows as the player's name (the plain text of the
  engine writes a seat marker, :func:`nemeton.engine.log.seat_ref`);
- ``{"msg": message}``: a message rendered in the same language (a game's term, such as a
  card or a space, or a clause);
- ``{"list": [argument, ...]}``: a list joined as the locale joins one ("a, b and c",
  "a, b e c", "a, b y c").

Catalogues: ids are namespaced by domain (``nemeton.*`` for what every game shares,
``<game>.*`` for one game's). English is a catalogue like the others (its ``msgstr`` is the
English text), and the fallback for any id another language lacks. A plural message is a
gettext plural entry (``msgid_plural`` = the id + ``_plural``); its form is chosen by the
argument ``count``. Placeholders are ``{name}``. Files: ``nemeton/locale/<lang>/LC_MESSAGES/
nemeton.po`` and each game's ``locale/<lang>/LC_MESSAGES/<game>.po``, compiled to ``.mo``
(read here) and to one JSON file per language for the web client (``nemeton/web/i18n/``) by
``scripts/catalogues.py``.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

#: The languages of the rulebooks, English first (the fallback).
LANGUAGES = ("en", "it", "es")
DEFAULT = "en"
#: The locale each language formats numbers and lists in (British English: "a, b and c").
FORMAT_LOCALE = {"en": "en_GB", "it": "it_IT", "es": "es_ES"}
#: Languages whose numbers group thousands only from five digits up (CLDR).
MIN_GROUPING_2 = ("it", "es")
#: The name of each language in itself (the language switcher's labels).
NATIVE_NAMES = {"en": "English", "it": "Italiano", "es": "Español"}

PLURAL_SUFFIX = "_plural"
SHARED_LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

Message = dict  # {"id": str, "args": {name: argument}}


# ----- building messages -----------------------------------------------------------------
def msg(id: str, **args: Any) -> Message:
    """A message: ``msg("alarun.event.pass", seat=seat(1))``. Arguments are converted: a
    message becomes ``{"msg": ...}``, a list or tuple ``{"list": [...]}``; numbers, strings
    and ``{"seat"}``/``{"msg"}``/``{"list"}`` dicts are kept."""
    out: Message = {"id": id}
    if args:
        out["args"] = {k: arg(v) for k, v in args.items()}
    return out


def arg(value: Any) -> Any:
    """One argument in its JSON form (see :func:`msg`)."""
    if isinstance(value, bool):
        raise TypeError("a message argument is a number, a string, a seat, a message or a list; not a bool")
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, Mapping):
        if "id" in value:
            return {"msg": dict(value)}
        if len(value) == 1 and next(iter(value)) in ("seat", "msg", "list"):
            return dict(value)
        raise TypeError(f"not a message argument: {value!r}")
    if isinstance(value, (list, tuple)):
        return {"list": [arg(v) for v in value]}
    raise TypeError(f"not a message argument: {value!r}")


def seat(n: int) -> dict[str, int]:
    """A seat argument."""
    return {"seat": int(n)}


# ----- languages ----------------------------------------------------------------------------
def normalize(lang: str | None) -> str | None:
    """``"it-IT"``, ``"it_IT.UTF-8"``, ``"IT"`` -> ``"it"``; None for a language we lack."""
    if not lang or not isinstance(lang, str):
        return None
    code = re.split(r"[-_.@]", lang.strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES else None


def negotiate(accept: str | None, default: str = DEFAULT) -> str:
    """The language to speak for an ``Accept-Language`` header (or a list of tags separated
    by commas or colons, as ``LANGUAGE`` is): the first we have, by quality; else ``default``."""
    if not accept or not isinstance(accept, str):
        return default
    ranked = []
    for i, item in enumerate(re.split(r"[,:]", accept[:1000])):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        m = re.search(r"q\s*=\s*([0-9.]+)", params)
        if m:
            try:
                quality = float(m.group(1))
            except ValueError:
                quality = 0.0
        ranked.append((-quality, i, tag))
    for _q, _i, tag in sorted(ranked):
        code = normalize(tag)
        if code is not None and _q < 0:
            return code
    return default


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``NEMETON_LANG``, then POSIX's ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG``; English when none names a language we have (``C``,
    ``POSIX`` or unset)."""
    env = os.environ if environ is None else environ
    for name in ("NEMETON_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = negotiate(value, default="")
            if code:
                return code
            if name != "LANGUAGE":  # LANGUAGE may list languages we lack; the others decide
                return DEFAULT
    return DEFAULT


# ----- catalogues ---------------------------------------------------------------------------
def locale_dirs() -> list[tuple[str, Path]]:
    """(domain, folder) of every catalogue: the shared one and each registered game's."""
    from ..engine import list_games
    dirs = [("nemeton", SHARED_LOCALE_DIR)]
    for spec in list_games():
        if spec.locale_dir:
            dirs.append((spec.name, Path(spec.locale_dir)))
    return dirs


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str | tuple[str, ...]]:
    """Every message of ``lang`` (all domains): id -> text, or the plural forms in gettext
    order. Read from the compiled ``.mo`` files; empty translations are left out."""
    from babel.messages.mofile import read_mo
    out: dict[str, str | tuple[str, ...]] = {}
    for domain, folder in locale_dirs():
        path = folder / lang / "LC_MESSAGES" / f"{domain}.mo"
        if not path.is_file():
            continue
        with open(path, "rb") as fh:
            cat = read_mo(fh)
        for m in cat:
            if not m.id:
                continue
            if isinstance(m.id, (list, tuple)):
                forms = tuple(m.string or ())
                if all(forms):
                    out[m.id[0]] = forms
            elif isinstance(m.string, str) and m.string:
                out[m.id] = m.string
    return out


@lru_cache(maxsize=None)
def _plural_index(lang: str) -> Callable[[float], int]:
    from babel.messages.plurals import get_plural
    expr = get_plural(FORMAT_LOCALE[lang]).plural_expr  # gettext's C expression: "(n != 1)"
    if expr.strip("() ") != "n != 1":  # pragma: no cover - English, Italian and Spanish all are
        raise ValueError(f"plural rule {expr!r} of {lang!r} is not supported yet: add it here")
    return lambda n: 0 if n == 1 else 1


def template(id: str, lang: str = DEFAULT, count: float | None = None) -> str | None:
    """The text of message ``id`` in ``lang`` (English when ``lang`` lacks it; None when no
    catalogue has it), its plural form chosen by ``count``."""
    lang = lang if lang in LANGUAGES else DEFAULT
    entry = catalogue(lang).get(id)
    if entry is None and lang != DEFAULT:
        lang = DEFAULT
        entry = catalogue(DEFAULT).get(id)
    if entry is None:
        return None
    if isinstance(entry, tuple):
        index = _plural_index(lang)(count if count is not None else 0)
        return entry[min(index, len(entry) - 1)]
    return entry


# ----- rendering ----------------------------------------------------------------------------
def format_number(value: float, lang: str = DEFAULT, decimals: int | None = None) -> str:
    """A number as the locale writes it; a whole float without its ``.0`` (a score of 12), or
    with exactly ``decimals`` decimals where given (an accuracy of 85.0)."""
    from babel.numbers import format_decimal
    if decimals is None and isinstance(value, float) and value.is_integer():
        value = int(value)
    # CLDR's minimum grouping digits (2 in Italian and Spanish: 1234 but 12.345), which
    # browsers' Intl.NumberFormat applies and Babel does not
    grouping = not (lang in MIN_GROUPING_2 and abs(value) < 10000)
    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=FORMAT_LOCALE.get(lang, "en_GB"), group_separator=grouping)


def format_percent(value: float, lang: str = DEFAULT, decimals: int = 0) -> str:
    """A share as the locale writes a percentage (``68.5%``, ``68,5%``)."""
    from babel.numbers import format_percent as fp
    pattern = "#,##0" + ("." + "0" * decimals if decimals else "") + "%"
    return fp(value, format=pattern, locale=FORMAT_LOCALE.get(lang, "en_GB"))


def format_list(items: Iterable[str], lang: str = DEFAULT) -> str:
    """Items joined as the locale lists them ("a, b and c", "a, b e c", "a, b y c")."""
    from babel.lists import format_list as fl
    items = list(items)
    return fl(items, locale=FORMAT_LOCALE.get(lang, "en_GB")) if items else ""


def _seat_marker(n: int) -> str:
    from ..engine.log import seat_ref
    return seat_ref(n)


def render(message: Mapping[str, Any], lang: str = DEFAULT, seat: Callable[[int], str] | None = None) -> str:
    """``message`` as text in ``lang``: each seat written by ``seat(n)`` (default: the engine's
    seat marker, which :func:`nemeton.engine.log.split_parts` turns into parts). An id no
    catalogue has is written as the id with its arguments (never an error: a newer server's
    message still shows)."""
    seat_text = seat or _seat_marker
    lang = lang if lang in LANGUAGES else DEFAULT
    args = message.get("args") or {}
    count = args.get("count")
    text = template(str(message.get("id")), lang, count if isinstance(count, (int, float)) else None)
    if text is None:
        shown = ", ".join(f"{k}={render_arg(v, lang, seat_text)}" for k, v in args.items())
        return f"{message.get('id')}" + (f" ({shown})" if shown else "")

    def fill(m: re.Match) -> str:
        name = m.group(1)
        return render_arg(args[name], lang, seat_text) if name in args else m.group(0)

    return _PLACEHOLDER.sub(fill, text)


def render_arg(value: Any, lang: str, seat: Callable[[int], str]) -> str:
    """One argument as text (see :func:`msg` for the kinds)."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return format_number(value, lang)
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        if "seat" in value:
            return seat(value["seat"])
        if "msg" in value and isinstance(value["msg"], Mapping):
            return render(value["msg"], lang, seat)
        if "list" in value and isinstance(value["list"], list):
            return format_list([render_arg(v, lang, seat) for v in value["list"]], lang)
    return str(value)


def render_parts(message: Mapping[str, Any], lang: str = DEFAULT, players: int | None = None,
                 *, capital: bool = True) -> tuple[str, list]:
    """``(text, parts)`` of ``message`` in ``lang``, as the engine's log entries carry them:
    the plain text (seats as "seat n", or the language's word) and the parts (strings and
    ``{"seat": n}``)."""
    from ..engine.log import split_parts
    word = seat_word(lang)
    return split_parts(render(message, lang), players, capital=capital, words=(word[:1].upper() + word[1:], word))


def seat_word(lang: str = DEFAULT) -> str:
    """How plain text names a seat in ``lang``, ``{n}`` its number: "seat {n}", "giocatore {n}"."""
    return template("nemeton.seat", lang) or "seat {n}"


def with_option_labels(message: Mapping[str, Any] | None, game: str) -> Message | None:
    """An options error's message (``nemeton.error.option.*``) with the option's code name
    (``args["name"]``) replaced by ``game``'s label for it (``<game>.option.<name>.label``,
    else ``nemeton.option.<name>.label``: players), where the catalogue has one: what the
    lobby shows the option as."""
    if not message or not isinstance(message.get("args"), Mapping):
        return dict(message) if message else None
    args = dict(message["args"])
    name = args.get("name")
    if isinstance(name, str):
        for id in (f"{game}.option.{name}.label", f"nemeton.option.{name}.label"):
            if template(id) is not None:
                args["name"] = arg(msg(id))
                break
    return {"id": message["id"], "args": args}


def t(id: str, lang: str = DEFAULT, **args: Any) -> str:
    """A message rendered at once (for text a program prints: the terminal's lines)."""
    return render(msg(id, **args), lang)
