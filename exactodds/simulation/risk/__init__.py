"""Risk of ruin, in one room below the dealing pipeline.

* :mod:`~exactodds.simulation.risk.sums`: exact integer sums per shoe (merged without overflow);
* :mod:`~exactodds.simulation.risk.tally`: the trip tallies a block adds to (the per-shoe
  results, the trips' lows, the series moments), merged in shoe order;
* :mod:`~exactodds.simulation.risk.paths`: the bankroll's paths over a trip's shoes (exact
  histograms per shoe) and the risk of ruin against the bankroll, for the fan chart;
* :mod:`~exactodds.simulation.risk.ruin`: the ruin programme (a dynamic programme over the
  bankroll for a trip, the Cramer-Lundberg bound for unlimited play);
* :mod:`~exactodds.simulation.risk.figures`: the risk figures drawn from the tallies.
"""
