"""Every way to count a shoe's rounds, all exact.

- :mod:`exactodds.engine.walk`: the recursive walk without replacement, the reference.
- :mod:`exactodds.engine.cardwalk`: the same counts keyed by the classes of the cards each
  hand holds (value refined by rank, suit or colour where asked), for card-level bets.
- :mod:`exactodds.engine.cardterms`: a value of those rounds summed for any shoe, compiled once
  into terms of falling factorials of the class counts (many shoes a call, for simulations).
- :mod:`exactodds.engine.faces`: the rounds keyed by each hand's values, split by face pattern
  (which cards share a face), for random-multiplier overlays.
- :mod:`exactodds.engine.known`: the same walk with some cards of the round known.
- :mod:`exactodds.engine.polynomial`: the counts as polynomials in the ten value counts,
  compiled once per drawing tableau, for evaluating many shoes at once.
- :mod:`exactodds.engine.kernel`: the compiled evaluation of those polynomials (and pair
  states and EV numerators) for many shoes per call, and its pure-Python twin.
- :mod:`exactodds.engine.coefficients`: those polynomials in plain Python, compiled once.
- :mod:`exactodds.engine.cache`: the small on-disk cache they are kept in.
"""
