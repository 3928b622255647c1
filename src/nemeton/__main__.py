"""``python -m nemeton``: the ``nemeton`` command line."""

from .cli import main

main()
