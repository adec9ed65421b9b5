"""``python -m exactodds``: the same as the ``exactodds`` command."""

from exactodds.cli import main

main()
