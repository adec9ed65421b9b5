"""Research script: exact probability of each winning side and total, and of cards dealt.

Reproduces the Wizard of Odds table "Exact Winning Side and Total in Baccarat" (8 decks):
Banker wins with 6 in 269,232,304,455,680 of 4,998,398,275,503,360 rounds.

    python examples/totals_breakdown.py [DECKS]
"""

from __future__ import annotations

import sys

from exactodds import Shoe, Winner, enumerate_rounds
from exactodds.analysis.breakdown import breakdown
from exactodds.numbers import decimal_string


def main() -> None:
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    result = breakdown(enumerate_rounds(Shoe.standard(decks=decks)))
    print(f"{decks} decks: winning side and total (combinations, probability)")
    print(f"{'total':>5} {'Player wins':>30} {'Banker wins':>30} {'Tie':>28}")
    for total in range(9, -1, -1):
        cells = []
        for winner in (Winner.PLAYER, Winner.BANKER, Winner.TIE):
            frequency = result.winning_totals[(winner, total)]
            cells.append(f"{frequency.count:>20,} {decimal_string(frequency.probability, 6)}")
        print(f"{total:>5} " + " ".join(cells))
    for cards, frequency in sorted(result.cards_dealt.items()):
        print(f"{cards} cards dealt: {decimal_string(frequency.probability, 6)}")


if __name__ == "__main__":
    main()
