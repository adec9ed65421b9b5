"""Shoes dealt in sequence, with the exact edge of every hand.

* :mod:`~exactodds.simulation.dealing`: the casino's dealing procedure (shuffle, burn, cut
  card, extra rounds) for a block of shoes at once, as flat integer arrays;
* :mod:`~exactodds.simulation.evaluate`: the exact EV of every round's known composition,
  one batch call per block;
* :mod:`~exactodds.simulation.strategies`: when to bet (``perfect``, ``count``, ``always``);
* :mod:`~exactodds.simulation.tally`: exact integer accumulators and the frozen result;
* :mod:`~exactodds.simulation.run`: :func:`~exactodds.simulation.run.simulate`, worker
  processes, Dask, checkpoints and traces.
"""
