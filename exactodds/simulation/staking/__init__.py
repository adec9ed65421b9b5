"""How much each bet stakes, in one room below the pipeline's runners.

It stands on the risk room and on the pipeline's words (the study, the dealt block, its
values, the plays, the tally), never on its runners (``tests/test_layers.py`` holds it to
:data:`exactodds.floors.ROOMS`).

* :mod:`~exactodds.simulation.staking.stakes`: flat, Kelly, ramps and table limits;
* :mod:`~exactodds.simulation.staking.sizing`: the stakes of a block's rounds and the risk
  sums they give;
* :mod:`~exactodds.simulation.staking.optimal`: the ramp that maximizes growth (or SCORE)
  within a spread, from a flat pilot's bands on the same shoes.
"""
