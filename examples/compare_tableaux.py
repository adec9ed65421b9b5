"""Research script: how the drawing rules move the odds, from the shipped rules files.

Prints, for each shipped tableau (and any TOML rules files given as arguments), the exact
Banker, Player and Tie probabilities and house edges on 8 decks.

    python examples/compare_tableaux.py [RULES.toml ...]
"""

from __future__ import annotations

import sys

from exactodds import Rules, Shoe, analyze
from exactodds.numbers import decimal_string, percent_string
from exactodds.rulefiles import resolve_rules_file, shipped_rules_files


def main() -> None:
    names = [*shipped_rules_files(), *sys.argv[1:]]
    shoe = Shoe.standard(decks=8)
    print(f"{'tableau':22} {'Banker':>9} {'Player':>9} {'Tie':>9}   house edges B / P / T")
    for name in names:
        tableau = resolve_rules_file(name).tableau
        result = analyze(shoe, Rules(tableau=tableau))
        probabilities = " ".join(
            f"{decimal_string(outcome.probability, 6):>9}" for outcome in result.outcomes.values()
        )
        edges = " / ".join(percent_string(bet.house_edge, 4) for bet in result.bets.values())
        print(f"{tableau.name:22} {probabilities}   {edges}")


if __name__ == "__main__":
    main()
