"""What a round pays: the Bet type, the main and side bets, custom bets and pay tables.

- :mod:`exactodds.bets.bet`: :class:`~exactodds.bets.bet.Bet` and the three main bets.
- :mod:`exactodds.bets.side`: the side bets casinos offer.
- :mod:`exactodds.bets.catalogue`: every bet by name, and selection by name or group.
- :mod:`exactodds.bets.custom`: user-defined bets read from TOML condition tables.
- :mod:`exactodds.bets.cardconditions`: their card-level conditions (ranks, values, suits,
  colours, faces of the cards dealt).
- :mod:`exactodds.bets.paytables`: pay overrides and pay-table files.
- :mod:`exactodds.bets.multipliers`: random-multiplier overlays (the law, the faces drawn, the
  multiple paid) and their checked reader.
- :mod:`exactodds.bets.tables`: named tables (a game as a casino deals it: decks, rules, pays,
  fee, game and bets) read from TOML table files.
"""
