"""Research script: how removing cards of one rank moves the Banker and Player edges.

For each rank, take 16 cards of that rank out of a fresh 8-deck shoe and
compare the exact house edges with those of the full shoe.  Every figure is
an exact Fraction; decimals are only for printing.

    python examples/removal_study.py
"""

from __future__ import annotations

from exactodds import Rules, Shoe, analyze
from exactodds.cards import RANKS
from exactodds.numbers import percent_string


def main() -> None:
    full = Shoe.standard(decks=8)
    rules = Rules()
    base = analyze(full, rules)
    base_banker = base.bets["banker"].house_edge
    base_player = base.bets["player"].house_edge
    print(
        "Full 8-deck shoe: Banker edge",
        percent_string(base_banker, 4),
        "Player edge",
        percent_string(base_player, 4),
    )
    print(f"{'removed':>10} {'Banker edge':>12} {'change':>10} {'Player edge':>12} {'change':>10}")
    for rank in RANKS:
        shoe = full.remove(rank.symbol * 16)
        result = analyze(shoe, rules)
        banker = result.bets["banker"].house_edge
        player = result.bets["player"].house_edge
        print(
            f"{'16 x ' + rank.symbol:>10} {percent_string(banker, 4):>12} "
            f"{percent_string(banker - base_banker, 4):>10} {percent_string(player, 4):>12} "
            f"{percent_string(player - base_player, 4):>10}"
        )


if __name__ == "__main__":
    main()
