"""The message catalogues (docs/i18n.md): ``compile`` writes the ``.mo`` files and the web
client's JSON from the ``.po`` files; ``check`` lists what is missing, inconsistent or out of
date (exit status 1); ``update`` adds new English ids, untranslated, to Italian and Spanish;
``unused`` and ``undefined`` compare the catalogues with the ids the sources name."""

from __future__ import annotations

import sys

from nemeton.i18n import catalogue
from nemeton.i18n.tools import compile_all, problems, update, used_ids


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "compile":
        for path in compile_all():
            print("wrote", path)
        return 0
    if command == "update":
        for line in update():
            print("added", line)
        return 0
    if command == "check":
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    if command == "undefined":
        english = catalogue("en")
        missing = {k: v for k, v in used_ids().items() if k not in english}
        for key, files in sorted(missing.items()):
            print(key, "in", ", ".join(sorted(set(files))))
        return 1 if missing else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
