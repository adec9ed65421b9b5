"""Research script: the pays that make each bet fair, exactly, for 1 to 8 decks.

For each number of decks, the Tie pay, the Banker commission and the Dragon 7
and Panda 8 pays at which the bet's EV is exactly zero (needs sympy:
``pip install ".[symbolic]"``).

    python examples/fair_pays.py
"""

from __future__ import annotations

import sys

from exactodds import Rules, Shoe, analyze
from exactodds.analysis.symbolic import breakeven
from exactodds.bets.catalogue import select_bets
from exactodds.errors import MissingExtraError
from exactodds.numbers import decimal_string, percent_string


def main() -> None:
    rules = Rules()
    bets = select_bets("banker,tie,dragon7,panda8", rules)
    print(f"{'decks':>5} {'Tie x:1':>10} {'commission':>11} {'Dragon 7':>10} {'Panda 8':>10}")
    for decks in range(1, 9):
        result = analyze(Shoe.standard(decks=decks), rules, bets)
        tie = breakeven("tie", "tie", result)
        commission = breakeven("banker", "commission", result)
        dragon = breakeven("dragon7", "dragon7", result)
        panda = breakeven("panda8", "panda8", result)
        print(
            f"{decks:>5} {decimal_string(tie, 4):>10} {percent_string(commission, 4):>11} "
            f"{decimal_string(dragon, 4):>10} {decimal_string(panda, 4):>10}"
        )


if __name__ == "__main__":
    try:
        main()
    except MissingExtraError as error:  # sympy is an extra: say how to get it, no traceback
        sys.exit(f"fair_pays.py: {error}")
