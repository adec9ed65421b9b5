"""Research script: the exact house edge of Banker, Player and Tie under several casinos' rules.

python examples/compare_tables.py [DECKS]
"""

from __future__ import annotations

import sys

from exactodds import Rules, Shoe, analyze
from exactodds.numbers import fraction_string, percent_string

TABLES = {
    "Punto Banco, 5% commission, Tie 8:1": Rules(),
    "Punto Banco, 4% commission, Tie 8:1": Rules(commission="4%"),
    "Punto Banco, 5% commission, Tie 9:1": Rules(tie_pays=9),
    "EZ Baccarat": Rules(variant="ez"),
    "Super 6": Rules(variant="super6"),
    "Ties lose (5% commission)": Rules(ties_push=False),
}


def main() -> None:
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    shoe = Shoe.standard(decks=decks)
    print(f"{decks} decks")
    for name, rules in TABLES.items():
        result = analyze(shoe, rules)
        edges = ", ".join(
            f"{bet} {percent_string(analysis.house_edge, 4)}"
            for bet, analysis in result.bets.items()
        )
        print(f"{name:40} {edges}")
    banker = analyze(shoe, Rules()).bets["banker"]
    print("Exact Banker EV at 5% commission:", fraction_string(banker.expected_value))


if __name__ == "__main__":
    main()
