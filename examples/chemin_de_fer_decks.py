"""Research script: chemin de fer solved exactly for 1 to 8 decks.

For each number of decks, under Downton and Lockwood's model (dealt without
replacement, the Banker sees his two cards, the Player his total), prints the
Player's optimal probability of drawing on 5, the Banker's mixed cell, the
value of the game (the Banker's edge) and how many Banker cells differ from
the Punto Banco tableau; then the value when the Player also sees his cards
(Ethier and Gamez's model) and whether exact linear programs prove both
optimal strategies of that game unique; and Kemeny and Snell's
with-replacement game for reference.  Every figure is exact; decimals are for reading.

    python examples/chemin_de_fer_decks.py [MAX_DECKS]      # default 8
"""

from __future__ import annotations

import sys

from exactodds import Shoe
from exactodds.games.chemin_de_fer import Model, Solution, solve
from exactodds.numbers import decimal_string, fraction_string, percent_string


def _mixed(solution: Solution) -> str:
    cells = [cell for cell in solution.equilibria[0].banker if 0 < cell.draw < 1]
    return ", ".join(
        f"{cell.hand} vs {cell.information}: {decimal_string(cell.draw, 4)}" for cell in cells
    )


def main() -> None:
    most = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    classic = solve(Shoe.standard(decks=1), Model(dealing="replacement", banker_sees="total"))
    assert classic.value is not None
    print(
        "Kemeny-Snell (with replacement, totals): Player draws on 5 with probability "
        f"{fraction_string(classic.player_draw_at_5['5'])}, "
        f"Banker edge {percent_string(classic.value, 4)}, mixes at {_mixed(classic)}"
    )
    print()
    print(
        f"{'decks':>5}  {'P(draw on 5)':>12}  {'Banker edge':>11}  {'cells != PB':>11}  "
        f"{'edge, Player sees cards':>23}  {'unique':>6}  Banker mixes at"
    )
    for decks in range(1, most + 1):
        shoe = Shoe.standard(decks=decks)
        totals = solve(shoe, Model())
        cards = solve(shoe, Model(player_sees="cards"))
        assert totals.value is not None and cards.value is not None
        draw = totals.player_draw_at_5["5"]
        print(
            f"{decks:>5}  {decimal_string(draw, 6):>12}  {percent_string(totals.value, 4):>11}  "
            f"{len(totals.differences_from_punto_banco()):>11}  "
            f"{percent_string(cards.value, 4):>23}  {'yes' if cards.complete else 'no':>6}  "
            f"{_mixed(totals)}"
        )


if __name__ == "__main__":
    main()
