"""The catalogues' maintenance, with Babel: compile (``.po`` -> ``.mo`` and the web client's
JSON), check (every language complete and consistent with English, compiled files current),
update (new English ids added, untranslated, to the other languages) and the ids the code
uses (Babel's extractors over the Python and JavaScript sources). ``scripts/catalogues.py``
is the command; docs/i18n.md the workflow."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from . import DEFAULT, LANGUAGES, PLURAL_SUFFIX, _PLACEHOLDER, locale_dirs

SRC = Path(__file__).resolve().parent.parent
WEB_I18N = SRC / "web" / "i18n"
#: The CLDR plural categories of gettext's forms, in order, for our languages (n != 1).
PLURAL_CATEGORIES = ("one", "other")


def po_path(folder: Path, domain: str, lang: str) -> Path:
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


def read(folder: Path, domain: str, lang: str):
    from babel.messages.pofile import read_po
    path = po_path(folder, domain, lang)
    if not path.is_file():
        from babel.messages.catalog import Catalog
        return Catalog(locale=lang, domain=domain)
    with open(path, "rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


def _key(m) -> str:
    return m.id[0] if isinstance(m.id, (list, tuple)) else m.id


def entries(catalog) -> dict[str, Any]:
    """id -> its text (a string) or plural forms (a tuple), empty ones included."""
    return {_key(m): (tuple(m.string) if isinstance(m.id, (list, tuple)) else m.string)
            for m in catalog if m.id}


def mo_bytes(catalog) -> bytes:
    """The compiled catalogue; its header's dates fixed, so the same ``.po`` compiles to the
    same bytes (Babel stamps a catalogue without dates with the time it was read)."""
    from datetime import datetime, timezone

    from babel.messages.mofile import write_mo
    fixed = datetime(2026, 1, 1, tzinfo=timezone.utc)
    catalog.creation_date = catalog.revision_date = fixed
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def web_json(lang: str) -> str:
    """The web client's catalogue for ``lang``: every domain's messages (plural ones as
    ``{"one": ..., "other": ...}``), English where ``lang`` lacks a message."""
    messages: dict[str, Any] = {}
    for domain, folder in locale_dirs():
        for language in (DEFAULT, lang) if lang != DEFAULT else (DEFAULT,):
            for key, value in entries(read(folder, domain, language)).items():
                if isinstance(value, tuple):
                    if all(value):
                        messages[key] = dict(zip(PLURAL_CATEGORIES, value))
                elif value:
                    messages[key] = value
    return json.dumps({"lang": lang, "messages": dict(sorted(messages.items()))}, ensure_ascii=False,
                      indent=0, sort_keys=False) + "\n"


def compiled() -> dict[Path, bytes]:
    """Every compiled file as it should be: each ``.mo`` and each language's web JSON."""
    out: dict[Path, bytes] = {}
    for domain, folder in locale_dirs():
        for lang in LANGUAGES:
            if po_path(folder, domain, lang).is_file():
                out[po_path(folder, domain, lang).with_suffix(".mo")] = mo_bytes(read(folder, domain, lang))
    for lang in LANGUAGES:
        out[WEB_I18N / f"{lang}.json"] = web_json(lang).encode("utf-8")
    return out


def compile_all() -> list[Path]:
    """Write the compiled files that differ; returns those written."""
    written = []
    for path, data in compiled().items():
        if not path.is_file() or path.read_bytes() != data:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    return written


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def problems() -> list[str]:
    """Everything wrong with the catalogues: an id English has that another language lacks
    or leaves empty (or marks fuzzy), an id another language has that English lacks, a
    placeholder set that differs from English's, a plural entry that is not plural in both,
    an id outside its domain, a compiled file out of date."""
    out: list[str] = []
    for domain, folder in locale_dirs():
        english = read(folder, domain, DEFAULT)
        en = entries(english)
        if not en and not po_path(folder, domain, DEFAULT).is_file():
            continue
        for key, value in en.items():
            if not key.startswith(domain + "."):
                out.append(f"{domain}: id {key!r} is not in the domain (ids start with '{domain}.')")
            if not (all(value) if isinstance(value, tuple) else value):
                out.append(f"{domain}/en: {key!r} has no English text")
        for lang in LANGUAGES[1:]:
            cat = read(folder, domain, lang)
            other = entries(cat)
            where = f"{domain}/{lang}"
            for m in cat:
                if m.id and m.fuzzy:
                    out.append(f"{where}: {_key(m)!r} is marked fuzzy (check the translation, then unmark it)")
            for key, value in en.items():
                if key not in other:
                    out.append(f"{where}: {key!r} is missing")
                    continue
                theirs = other[key]
                if isinstance(value, tuple) != isinstance(theirs, tuple):
                    out.append(f"{where}: {key!r} is plural in one language and not in the other")
                    continue
                texts = theirs if isinstance(theirs, tuple) else (theirs,)
                if not all(texts):
                    out.append(f"{where}: {key!r} is not translated")
                    continue
                want = placeholders(value[-1] if isinstance(value, tuple) else value)
                for text in texts:
                    got = placeholders(text)
                    if got != want and not (isinstance(value, tuple) and got <= want):
                        out.append(f"{where}: {key!r} has placeholders {sorted(got)}, English {sorted(want)}")
            for key in other:
                if key not in en:
                    out.append(f"{where}: {key!r} is not in the English catalogue")
    for path, data in compiled().items():
        if not path.is_file() or path.read_bytes() != data:
            out.append(f"{path.relative_to(SRC)} is out of date: run scripts/catalogues.py compile")
    return out


def update() -> list[str]:
    """Add each English id the other languages lack, untranslated (empty), so a translator
    sees it; returns what was added."""
    from babel.messages.pofile import write_po
    added = []
    for domain, folder in locale_dirs():
        english = read(folder, domain, DEFAULT)
        if not po_path(folder, domain, DEFAULT).is_file():
            continue
        for lang in LANGUAGES[1:]:
            cat = read(folder, domain, lang)
            have = set(entries(cat))
            changed = False
            for m in english:
                if m.id and _key(m) not in have:
                    string: Any = ("",) * 2 if isinstance(m.id, (list, tuple)) else ""
                    cat.add(m.id, string, auto_comments=m.auto_comments)
                    added.append(f"{domain}/{lang}: {_key(m)}")
                    changed = True
            if changed:
                path = po_path(folder, domain, lang)
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "wb") as fh:
                    write_po(fh, cat, width=100, omit_header=False, sort_output=False)
    return added


def used_ids() -> dict[str, list[str]]:
    """Message ids the sources name, id -> files: Python's ``msg("...")``, ``t("...")`` and
    ``template("...")``, JavaScript's ``t("...")`` and ``msg("...")`` (Babel's extractors).
    Ids built at run time (``f"alarun.ingredient.{name}"``) are not seen: the catalogues'
    tests render those from the game's data instead."""
    from babel.messages.extract import extract
    keywords = {"msg": None, "t": None, "template": None, "tr": None}
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".js", ".mjs") or "vendor" in path.parts or path.name.endswith(".min.js"):
            continue
        method = "python" if path.suffix == ".py" else "javascript"
        with open(path, "rb") as fh:
            for _line, message, _comments, _context in extract(method, fh, keywords=keywords,
                                                                options={"encoding": "utf-8"}):
                key = message[0] if isinstance(message, tuple) else message
                if not isinstance(key, str) or " " in key:
                    continue
                # Babel joins the string literals of one argument (msg("a.x" if c else "a.y")):
                # split them again at each domain's prefix
                domains = "|".join(sorted(_domains()))
                for one in re.findall(rf"(?:{domains})\.[A-Za-z0-9_.]+?(?=(?:{domains})\.|$)", key):
                    found.setdefault(one, []).append(str(path.relative_to(SRC)))
    return found


def _domains() -> set[str]:
    return {domain for domain, _folder in locale_dirs()}
