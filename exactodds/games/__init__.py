"""Games beside Punto Banco, solved exactly.

- :mod:`exactodds.games.chemin_de_fer`: baccara chemin de fer, a two-sided game.
- :mod:`exactodds.games.equilibria`: exact Nash equilibria of additive two-person games.
- :mod:`exactodds.games.simplex`: the exact simplex method over Fractions they are solved with.
- :mod:`exactodds.games.peek`: Peek Baccarat, the player's raise after some cards are shown.
- :mod:`exactodds.games.option`: a tableau whose cells may be choices (the Player's option at 5).
- :mod:`exactodds.games.banque`: baccara banque's bank against two fixed Player hands.
- :mod:`exactodds.games.dragon_tiger`: Dragon Tiger from a baccarat shoe (odds, effects of
  removal and a derived count); :mod:`exactodds.games.dragon_tiger_shoes`: its shoes dealt
  in sequence, each bet priced exactly before every round and played by a count or perfectly.
"""
