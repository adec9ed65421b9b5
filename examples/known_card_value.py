"""Research script: how much is knowing one card worth?

Suppose a bettor sees the card at dealing position k (1-4: P1 B1 P2 B2; 5: the
first third card; 6: the second, see ``exactodds.engine.known``) before choosing to
bet Banker (5% commission) or Player.  Given the card, the bettor takes the
bet with the higher exact EV; averaged over every card the position can
hold, weighted by its probability, that is the bettor's exact expected
result per unit staked.  Its gain over always betting Banker is what the
knowledge is worth.

The card at any one position of a fresh shoe is any of its cards with equal
probability, so a value v (0 for tens and faces) shows with probability
count(v)/n.  Main bets depend on values only, so one card per value suffices.
Two exact checks run along: averaging the Banker EV given the card gives back
the Banker EV of the full shoe, and likewise for the Player.

    python examples/known_card_value.py
"""

from __future__ import annotations

from fractions import Fraction

from exactodds import Rules, Shoe, analyze, main_bets, price_bet
from exactodds.engine.known import POSITION_LABELS, enumerate_known
from exactodds.numbers import decimal_string, fraction_string, percent_string

#: One rank per baccarat value: T for 0, A for 1, then 2-9.
VALUE_RANKS = ("T", "A", "2", "3", "4", "5", "6", "7", "8", "9")


def main() -> None:
    shoe = Shoe.standard(decks=8).without_suits()  # suits cannot change a main bet
    rules = Rules()
    banker_bet, player_bet, _ = main_bets(rules)
    full = analyze(shoe, rules)
    banker_ev = full.bets["banker"].expected_value
    player_ev = full.bets["player"].expected_value
    print(f"8 decks, {rules.describe()}")
    print(f"Without knowledge the best bet is Banker: EV {decimal_string(banker_ev, 8)}")
    print()
    header = (
        f"{'pos':>3}  {'card known':<21} {'best EV':>12} {'gain vs Banker':>15}  "
        f"{'Player is better on':<22} exact best EV"
    )
    print(header)
    print("-" * len(header))
    for position in range(1, 7):
        best = Fraction(0)
        average_banker = Fraction(0)
        average_player = Fraction(0)
        player_values = []
        for value, rank in enumerate(VALUE_RANKS):
            weight = Fraction(shoe.value_counts[value], shoe.cards)
            table = enumerate_known(shoe, rules.tableau, {position: rank})
            banker = price_bet(table, banker_bet).expected_value
            player = price_bet(table, player_bet).expected_value
            average_banker += weight * banker
            average_player += weight * player
            if player > banker:
                player_values.append(str(value))
            best += weight * max(banker, player)
        if (average_banker, average_player) != (banker_ev, player_ev):
            raise AssertionError("averaging over the known card must give back the shoe's EV")
        print(
            f"{position:>3}  {POSITION_LABELS[position]:<21} {decimal_string(best, 8):>12} "
            f"{percent_string(best - banker_ev, 4):>15}  {' '.join(player_values) or '-':<22} "
            f"{fraction_string(best)}"
        )


if __name__ == "__main__":
    main()
