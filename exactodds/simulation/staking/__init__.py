"""How much each bet stakes, in one room below the pipeline's runners.

It stands on the risk room and on the pipeline's lowest words (the dealt block, its values,
the plays, the tally), never on the study spec or the runners (``tests/test_layers.py`` holds
it to :data:`exactodds.floors.ROOMS`).

* :mod:`~exactodds.simulation.staking.study`: the fields of a study the room reads, as a
  protocol (the pipeline's ``Simulation`` meets it);
* :mod:`~exactodds.simulation.staking.stakes`: flat, Kelly, ramps and table limits;
* :mod:`~exactodds.simulation.staking.sizing`: the stakes of a block's rounds and the risk
  sums they give;
* :mod:`~exactodds.simulation.staking.optimal`: the ramp that maximizes growth (or SCORE)
  within a spread, from a flat pilot's bands on the same shoes.
"""
