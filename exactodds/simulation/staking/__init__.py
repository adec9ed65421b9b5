"""How much each bet stakes, in one room beside the risk room.

* :mod:`~exactodds.simulation.staking.stakes`: flat, Kelly, ramps and table limits;
* :mod:`~exactodds.simulation.staking.sizing`: the stakes of a block's rounds and the risk
  sums they give;
* :mod:`~exactodds.simulation.staking.optimal`: the ramp that maximizes growth (or SCORE)
  within a spread, from a flat pilot's bands on the same shoes.
"""
