"""Research script: a card count for a side bet, from its exact effects of removal.

Prices the Dragon 7 (EZ Baccarat) on a fresh 8-deck shoe and on the shoe less
one card of each rank, then derives balanced linear counts of levels 1 to 4
and their betting correlations.  Every effect is an exact Fraction; decimals
are only for printing.  The check at the end is exact too: the effects
weighted by the cards of each rank add up to zero.

    python examples/side_bet_count.py [BET]
"""

from __future__ import annotations

import sys

from exactodds import Rules, Shoe
from exactodds.analysis.removal import RANK_SYMBOLS, effect_of_removal
from exactodds.bets.catalogue import select_bets
from exactodds.numbers import decimal_string


def main(bet: str = "dragon7") -> None:
    rules = Rules(variant="ez")
    result = effect_of_removal(Shoe.standard(decks=8), rules, select_bets(bet, rules))
    effects = result.effects[bet]
    print(f"{bet} on 8 decks, EV {decimal_string(result.expected_values[bet], 6)}")
    print("rank " + " ".join(f"{symbol:>9}" for symbol in RANK_SYMBOLS))
    print("EoR  " + " ".join(f"{decimal_string(effects[s] or 0, 6):>9}" for s in RANK_SYMBOLS))
    for level in (1, 2, 3, 4):
        count = result.linear_count(bet, level)
        tags = " ".join(f"{count.tags[symbol]:>9d}" for symbol in RANK_SYMBOLS)
        print(f"L{level}   {tags}   correlation {count.correlation_decimal(4)}")
    print("sum of cards x effect:", result.weighted_sum(bet))


if __name__ == "__main__":
    main(*sys.argv[1:2])
