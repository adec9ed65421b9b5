"""Risk of ruin, in one room below the dealing pipeline.

Nothing here imports the pipeline (``tests/test_layers.py`` holds it to
:data:`exactodds.floors.ROOMS`): the pipeline's blocks and results call into the room.

* :mod:`~exactodds.simulation.risk.sums`: exact integer sums per shoe (merged without
  overflow) and the estimates drawn from them (a mean with its standard error over shoes);
* :mod:`~exactodds.simulation.risk.tally`: the trip tallies a block adds to (the per-shoe
  results, the trips' lows, the series moments), merged in shoe order, with the one joiner
  of the trips split between blocks (:func:`~exactodds.simulation.risk.tally.joined_parts`);
* :mod:`~exactodds.simulation.risk.paths`: the bankroll's paths over a trip's shoes (exact
  histograms per shoe) and the risk of ruin against the bankroll, for the fan chart;
* :mod:`~exactodds.simulation.risk.ruin`: the ruin programme (a dynamic programme over the
  bankroll for a trip, the Cramer-Lundberg bound for unlimited play);
* :mod:`~exactodds.simulation.risk.questions`: what a study asks beyond the tally (a risk
  target, a trip, rounds an hour, a grid of bankrolls and trip lengths);
* :mod:`~exactodds.simulation.risk.rebates`: a rebate over the simulated trips (each trip's
  result and turnover, kept by the tally): the trips' result distribution with and without it;
* :mod:`~exactodds.simulation.risk.figures`: the risk figures drawn from the tallies, and
  :class:`~exactodds.simulation.risk.figures.RiskFigures`, a result's figures computed once.
"""
